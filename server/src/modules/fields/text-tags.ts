import {
  ALWAYS_REQUIRED,
  FIELD_TYPES,
  MIN_FIELD_SIZE,
  type Box,
  type FieldType,
  type PageSize,
} from './field-types.js';
import { readTagSettings, type TagSettings } from './tag-settings.js';

/** A field a text tag asks for, placed where the tag is written. */
export type TextTagField = {
  /** The tag as written, e.g. `{{text:2:Job title!}}`. */
  tag: string;
  /** 0-based position in the signees (the tag's N is 1-based). */
  signee: number;
  type: FieldType;
  /** 1-based. */
  page: number;
  /** PDF points from the top-left of the page as displayed: the tag's box grown to the type's minimum size. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The tag's own text box, same coordinates: painted over when the value is drawn. */
  tagBox: Box;
  required: boolean;
  label: string | null;
} & Omit<TagSettings, 'label'>;

/** A tag that cannot become a field, and why. */
export type TextTagProblem = { tag: string; page: number; message: string };

/** What a scan found: fields, problems, and every page's displayed size. */
export type TextTagScan = { fields: TextTagField[]; problems: TextTagProblem[]; pages: PageSize[] };

/** Scanning stops after this many tags or pages, and says so. */
export const MAX_TAGS = 2000;
export const MAX_TAG_PAGES = 5000;
const MAX_LABEL = 200;

// `{{` then anything but braces and line ends, then `}}`.
const TAG = /\{\{([^{}\n]*)\}\}/g;
// TYPE:N, then :LABEL, then ! for required; spaces around the separators are tolerated (a PDF's
// text runs often split a tag there, and extraction puts a space in the gap).
const GRAMMAR = /^\s*([A-Za-z]+)\s*:\s*([^:!]*?)\s*(?::([^]*?))?\s*(!)?\s*$/;

/** One character of a page's text: which text item it comes from, and where in it. */
type CharAt = { item: number; offset: number };

/**
 * A text item as pdf.js extracts it: the string, its text-space matrix, width and height; with
 * the widths of its characters relative to each other when known (`advances`, see scanTextTags).
 */
type TextItem = {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
  advances?: number[];
};

/** What a page offers the scan: its items and how user space maps to the displayed page. */
export type ScannedPage = {
  size: PageSize;
  items: TextItem[];
  /** User space (PDF points) to displayed space (points from the top-left). */
  toDisplayed: (x: number, y: number) => [number, number];
};

/**
 * Finds `{{TYPE:N}}`, `{{TYPE:N:LABEL}}` and their `!` forms in the pages' text, with the box
 * each is written in, and turns them into fields; a tag that does not parse, or names a signee
 * that does not exist (when `signeeCount` is given), is a problem instead.
 */
export function findTextTags(
  pages: ScannedPage[],
  options: TextTagOptions,
): { fields: TextTagField[]; problems: TextTagProblem[] } {
  const fields: TextTagField[] = [];
  const problems: TextTagProblem[] = [];
  for (const [index, page] of pages.entries()) {
    const number = index + 1;
    if (number > MAX_TAG_PAGES) {
      problems.push({
        tag: '',
        page: number,
        message: `tags are read on the first ${MAX_TAG_PAGES} pages only`,
      });
      break;
    }
    const { text, chars } = pageText(page.items);
    for (const match of tagsAndFragments(text)) {
      if (fields.length + problems.length >= MAX_TAGS) {
        problems.push({
          tag: match[0],
          page: number,
          message: `at most ${MAX_TAGS} tags are read`,
        });
        return { fields, problems };
      }
      const tag = match[0].replace(/\s+/g, ' ');
      if (match[1] === undefined) {
        problems.push({ tag, page: number, message: UNCLOSED });
        continue;
      }
      const parsed = parseTag(match[1], options);
      if ('problem' in parsed) {
        problems.push({ tag, page: number, message: parsed.problem });
        continue;
      }
      const tagBox = boxOf(page, chars.slice(match.index, match.index + match[0].length));
      fields.push({
        tag,
        ...parsed,
        page: number,
        ...grow(tagBox, parsed.type, page.size),
        tagBox,
      });
    }
  }
  return { fields, problems };
}

const UNCLOSED =
  'malformed tag: no }} after it on its line (a tag is written on one line, inside the page as displayed)';

// Every tag (with its inside as group 1), and every `{{` that opens none: a tag broken over
// two lines, or cut by the page's crop (text outside it is not extracted), is told, not lost.
// A fragment is its first word, at most 40 characters.
function* tagsAndFragments(text: string): Generator<{ 0: string; 1?: string; index: number }> {
  let end = 0;
  for (const match of text.matchAll(TAG)) {
    yield* fragments(text, end, match.index);
    yield { 0: match[0], 1: match[1], index: match.index };
    end = match.index + match[0].length;
  }
  yield* fragments(text, end, text.length);
}

function* fragments(text: string, from: number, to: number) {
  for (let at = text.indexOf('{{', from); at >= 0 && at < to; at = text.indexOf('{{', at + 2)) {
    const fragment = /^\{\{[^\s{}]{0,38}/.exec(text.slice(at, to))![0];
    yield { 0: fragment, index: at };
  }
}

/** How many signees (or a template's roles) tags may name; unchecked when not given. */
export type TextTagOptions = { signeeCount?: number; participant?: 'signee' | 'role' };

function parseTag(
  inner: string,
  { signeeCount, participant = 'signee' }: TextTagOptions,
): (Pick<TextTagField, 'type' | 'signee' | 'required'> & TagSettings) | { problem: string } {
  const m = GRAMMAR.exec(inner);
  if (!m)
    return {
      problem: 'malformed tag: write {{TYPE:N}}, {{TYPE:N:LABEL}}, and ! before }} for required',
    };
  const [, rawType, rawNumber, rawLabel, bang] = m;
  const type = rawType.toLowerCase();
  if (!(FIELD_TYPES as readonly string[]).includes(type)) {
    return { problem: `unknown field type "${rawType}" (one of ${FIELD_TYPES.join(', ')})` };
  }
  if (!/^\d+$/.test(rawNumber) || Number(rawNumber) < 1) {
    return {
      problem: `the ${participant} number must be a whole number from 1, not "${rawNumber}"`,
    };
  }
  const n = Number(rawNumber);
  if (signeeCount !== undefined && n > signeeCount) {
    const count = `${signeeCount} ${participant}${signeeCount === 1 ? '' : 's'}`;
    const owner = participant === 'role' ? 'template' : 'document';
    return { problem: `${participant} ${n} does not exist (the ${owner} has ${count})` };
  }
  // Dropdowns, radios and numbers take settings after their label (tag-settings.ts).
  const settings = readTagSettings(type, rawLabel);
  if ('problem' in settings) return settings;
  if (settings.label && settings.label.length > MAX_LABEL) {
    return { problem: `the label is longer than ${MAX_LABEL} characters` };
  }
  const fieldType = type as FieldType;
  return {
    type: fieldType,
    signee: n - 1,
    required: ALWAYS_REQUIRED.has(fieldType) || bang === '!',
    ...settings,
  };
}

// A page's items joined into one string (a line end after an item that ends a line), with the
// item and offset of each character.
function pageText(items: TextItem[]): { text: string; chars: CharAt[] } {
  let text = '';
  const chars: CharAt[] = [];
  items.forEach((item, i) => {
    for (let offset = 0; offset < item.str.length; offset++) chars.push({ item: i, offset });
    text += item.str;
    if (item.hasEOL) {
      text += '\n';
      chars.push({ item: -1, offset: 0 });
    }
  });
  return { text, chars };
}

// The displayed box around the characters of a tag: each item's covered part, taken as its
// share of the item's width, from its baseline down by a fifth of its height (descenders) and
// up by its height, turned into displayed space.
function boxOf(page: ScannedPage, chars: CharAt[]): Box {
  const spans = new Map<number, { from: number; to: number }>();
  for (const { item, offset } of chars) {
    if (item < 0) continue;
    const span = spans.get(item);
    if (!span) spans.set(item, { from: offset, to: offset + 1 });
    else span.to = offset + 1;
  }
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [index, { from, to }] of spans) {
    const item = page.items[index];
    if (item.str.trim() === '' && item.height === 0) continue;
    const [a, b, c, d, e, f] = item.transform;
    const along = Math.hypot(a, b) || 1;
    const [ux, uy] = [a / along, b / along];
    const up = Math.hypot(c, d) || item.height || 1;
    const [vx, vy] = [c / up, d / up];
    const height = item.height || up;
    const [s0, s1] = [offsetOf(item, from), offsetOf(item, to)];
    for (const [s, h] of [
      [s0, -0.2 * height],
      [s1, -0.2 * height],
      [s0, height],
      [s1, height],
    ]) {
      const [x, y] = page.toDisplayed(e + ux * s + vx * h, f + uy * s + vy * h);
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  if (!Number.isFinite(left)) return { x: 0, y: 0, width: 0, height: 0 };
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    x: round(Math.max(0, left)),
    y: round(Math.max(0, top)),
    width: round(right - left),
    height: round(bottom - top),
  };
}

// How far along an item its character `index` starts: the item's width shared out by the
// characters' advances when known, else equally.
function offsetOf(item: TextItem, index: number): number {
  const advances = item.advances;
  if (!advances) return (index / (item.str.length || 1)) * item.width;
  let before = 0;
  let total = 0;
  advances.forEach((advance, i) => {
    if (i < index) before += advance;
    total += advance;
  });
  return total > 0 ? (before / total) * item.width : 0;
}

// The tag's box grown to the type's minimum size (rightwards and downwards), kept on the page.
function grow(box: Box, type: FieldType, page: PageSize): Box {
  const min = MIN_FIELD_SIZE[type];
  const width = Math.min(Math.max(box.width, min.width), page.width);
  const height = Math.min(Math.max(box.height, min.height), page.height);
  return {
    x: Math.max(0, Math.min(box.x, page.width - width)),
    y: Math.max(0, Math.min(box.y, page.height - height)),
    width,
    height,
  };
}

/**
 * Reads a PDF with pdf.js and scans its tags: meant for a bounded thread (text-tags.worker.mjs),
 * as parsing and text extraction of an untrusted file is the costly part. A file pdf.js cannot
 * open rejects.
 */
export async function scanTextTags(
  bytes: Uint8Array,
  options: TextTagOptions,
): Promise<TextTagScan> {
  const { getDocument } = await (pdfjs ??= import('pdfjs-dist-node/legacy/build/pdf.mjs'));
  const { Standard14Font } = await (libpdf ??= import('@libpdf/core'));
  const task = getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  const document = await task.promise;
  try {
    const pages: ScannedPage[] = [];
    const count = Math.min(document.numPages, MAX_TAG_PAGES + 1);
    for (let n = 1; n <= count; n++) {
      const page = await document.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const items = content.items.flatMap((item) => ('str' in item ? [item] : []));
      pages.push({
        size: { width: round(viewport.width), height: round(viewport.height) },
        items: items.map((item) =>
          item.str.includes('{{') || item.str.includes('}}')
            ? {
                ...item,
                advances: advancesOf(item.str, content.styles[item.fontName], Standard14Font),
              }
            : item,
        ),
        toDisplayed: (x, y) => viewport.convertToViewportPoint(x, y) as [number, number],
      });
      page.cleanup();
    }
    const found = findTextTags(pages, options);
    return { ...found, pages: pages.slice(0, MAX_TAG_PAGES).map((p) => p.size) };
  } finally {
    await task.destroy();
  }
}

/**
 * The advances of a text item's characters relative to each other, for placing a tag that shares
 * its item with other text: pdf.js gives an item's width, not its characters'. They are the
 * standard font of the item's family (pdf.js tells serif, sans-serif or monospace from the font's
 * flags): Helvetica's advances for sans-serif text, Times' for serif, Courier's (all equal) for
 * monospace. Exact for text set in those fonts, close for the rest; a character they lack
 * counts as the font's default width, or as a full em in CJK scripts.
 */
function advancesOf(
  text: string,
  style: { fontFamily?: string } | undefined,
  standard: typeof import('@libpdf/core').Standard14Font,
): number[] {
  const family = style?.fontFamily ?? '';
  const name = /mono/i.test(family)
    ? 'Courier'
    : /^serif$/i.test(family)
      ? 'Times-Roman'
      : 'Helvetica';
  const { metrics, widths } = (standardFonts[name] ??= {
    metrics: standard.of(name),
    widths: new Map(),
  });
  // One advance per UTF-16 unit, as tags' offsets count them.
  return Array.from({ length: text.length }, (_, i) => {
    const char = text[i];
    let advance = widths.get(char);
    if (advance === undefined) {
      advance = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(char)
        ? 1000
        : metrics.widthOfTextAtSize(char, 1000) || 556;
      widths.set(char, advance);
    }
    return advance;
  });
}

// Each standard font's metrics, and the advances of the characters looked up so far.
const standardFonts: Partial<
  Record<
    'Helvetica' | 'Times-Roman' | 'Courier',
    { metrics: import('@libpdf/core').Standard14Font; widths: Map<string, number> }
  >
> = {};

let libpdf: Promise<typeof import('@libpdf/core')> | undefined;
let pdfjs: Promise<typeof import('pdfjs-dist-node/legacy/build/pdf.mjs')> | undefined;
const round = (n: number) => Math.round(n * 100) / 100;
