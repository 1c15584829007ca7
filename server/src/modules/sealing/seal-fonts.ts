import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  Standard14Font,
  type EmbeddedFont,
  PDF,
  type PdfRef,
  type Standard14FontName,
} from '@libpdf/core';
import { latin1Or } from './label-font.js';
import { createShapedFont, measureShaped, RIGHT_TO_LEFT, type ShapedFont } from './shaped-font.js';

/**
 * What a page canvas gives fonts to name themselves in the page's resources: the name as
 * operators write it (`/F1`).
 */
export type FontRegistrar = {
  font: (input: EmbeddedFont | Standard14FontName) => string;
  ref: (ref: PdfRef) => string;
};

/** A font usable for drawing plus the two things layout needs: cleaning and measuring. */
export type SealFont = {
  /** Replaces what the font cannot draw, so a stray character never breaks a seal. */
  clean: (text: string) => string;
  width: (text: string, size: number) => number;
  /**
   * Already cleaned text as runs of one font each, to be shown in a text object (also recording
   * glyphs for subsetting).
   */
  show: (register: FontRegistrar, text: string, size: number) => ShownRun[];
  /**
   * Shared by every font, in any document, that cleans and measures texts the same way: what
   * layout works out from `clean` and `width` is kept by it, across seals (a font itself is made
   * per document).
   */
  measures: object;
};

/**
 * A run of text in one font, as content-stream text: what comes before its font is set
 * (`before`: a marked-content span), the font's resource name and size (the canvas sets them
 * where the text object has others), then the lines that show its glyphs.
 */
export type ShownRun = { before: string; font: string; size: number; glyphs: string };

export type SealFonts = {
  /**
   * Text from users (names, e-mails, titles, values) in any script: Noto Sans, then the Noto
   * font of each other script, embedded only when the text needs it.
   */
  regular: SealFont;
  /**
   * Our own labels: a standard font (costs nothing to embed) for Latin-1 text; a label of
   * another script (Polish, Japanese, Arabic…) in the regular stack, which draws it.
   */
  bold: SealFont;
  /** Handwriting-like font for typed signatures, embedded on first use. */
  readonly script: SealFont;
  mono: SealFont;
  /** Writes the fonts that need it (the shaped scripts'): once, after the last text, before saving. */
  finish: () => void;
};

const require = createRequire(import.meta.url);
const notoFile = (family: string, file: string) =>
  `@expo-google-fonts/${family}/400Regular/${file}_400Regular.ttf`;

// Font files ship inside npm packages (OFL-1.1), so no system font is needed at run time. In
// the order a character's font is chosen: the first that has it.
const PLAIN_FONTS = {
  regular: notoFile('noto-sans', 'NotoSans'),
  script: notoFile('caveat', 'Caveat'),
  // Chinese (simplified and traditional) and Japanese kana and kanji; then Korean hangul and
  // what Chinese lacks. No shaping needed: drawn through their character maps.
  cjk: notoFile('noto-sans-sc', 'NotoSansSC'),
  korean: notoFile('noto-sans-kr', 'NotoSansKR'),
} as const;

// Scripts whose letters join, reorder or stack: shaped by HarfBuzz. Each font draws its script
// even where an earlier font of the stack has the characters (Noto Sans has Devanagari, but
// unshaped).
const SHAPED_FONTS: ShapedFontSpec[] = (
  [
    ['noto-sans-arabic', 'NotoSansArabic', /\p{Script=Arabic}/u],
    ['noto-sans-hebrew', 'NotoSansHebrew', /\p{Script=Hebrew}/u],
    ['noto-sans-devanagari', 'NotoSansDevanagari', /\p{Script=Devanagari}/u],
    ['noto-sans-bengali', 'NotoSansBengali', /\p{Script=Bengali}/u],
    ['noto-sans-gurmukhi', 'NotoSansGurmukhi', /\p{Script=Gurmukhi}/u],
    ['noto-sans-gujarati', 'NotoSansGujarati', /\p{Script=Gujarati}/u],
    ['noto-sans-tamil', 'NotoSansTamil', /\p{Script=Tamil}/u],
    ['noto-sans-telugu', 'NotoSansTelugu', /\p{Script=Telugu}/u],
    ['noto-sans-kannada', 'NotoSansKannada', /\p{Script=Kannada}/u],
    ['noto-sans-malayalam', 'NotoSansMalayalam', /\p{Script=Malayalam}/u],
    ['noto-sans-thai', 'NotoSansThai', /\p{Script=Thai}/u],
    // Emoji in outline (one colour): sequences and skin tones are ligatures, so shaped too.
    ['noto-emoji', 'NotoEmoji', /\p{Extended_Pictographic}/u],
  ] as const
).map(([family, file, script]) => ({
  name: `${file}-Regular`,
  path: notoFile(family, file),
  script,
}));

type ShapedFontSpec = { name: string; path: string; script: RegExp };

/** Drawn for a character no font has: visible, never a question mark. */
const PLACEHOLDER = '\u25A1';

// Read and parsed once per process (sealing is repeated work): the bytes, and one probe font
// per file whose parsed program every document's copy shares. Parsing a CJK font's tables takes
// ~200 ms; shared, a document pays for its own glyphs only.
const files = new Map<string, Uint8Array>();
function fontFile(path: string): Uint8Array {
  let bytes = files.get(path);
  if (!bytes) {
    bytes = withoutGlyphNames(readFileSync(require.resolve(path)));
    files.set(path, bytes);
  }
  return bytes;
}

// EmbeddedFont keeps its parsed program in a field its type declarations call private.
type WithProgram = { fontProgram: unknown };

/**
 * A font file's process-wide state: a copy embedded into a PDF of its own (never saved, only its
 * parsed program is used), each character's advance and glyph id as looked up so far, and the
 * texts drawn so far.
 */
type Probe = {
  font: EmbeddedFont;
  advances: Map<string, number>;
  gids: Map<string, number>;
  /** Texts as drawn: the content-stream line that shows their glyph ids. */
  texts: Map<string, string>;
  /** Texts as drawn: their characters, each once. */
  chars: Map<string, string[]>;
};

// A document's font is told each character once; which characters a text holds is worked out
// once per process (a certificate's texts are new to each document, not to the process).
function distinctChars(probe: Probe, text: string): string[] {
  return probe.chars.get(text) ?? remember(probe.chars, text, [...new Set(text)]);
}
let probePdf: PDF | undefined;
const probes = new Map<string, Probe>();
function probeFont(path: string): Probe {
  let probe = probes.get(path);
  if (!probe) {
    probePdf ??= PDF.create();
    probe = {
      font: probePdf.embedFont(fontFile(path)),
      advances: new Map(),
      gids: new Map(),
      texts: new Map(),
      chars: new Map(),
    };
    probes.set(path, probe);
  }
  return probe;
}

/** `path`'s font embedded into `pdf`, sharing the parsed program of this process's copy. */
function embedShared(pdf: PDF, path: string): EmbeddedFont {
  const font = pdf.embedFont(fontFile(path));
  (font as unknown as WithProgram).fontProgram = (
    probeFont(path).font as unknown as WithProgram
  ).fontProgram;
  return font;
}

/** Embeds the fonts of the signature and audit pages into `pdf` (subset at save time). */
export function embedSealFonts(pdf: PDF): SealFonts {
  // Only what a document's text needs is embedded: each font on first use.
  let script: SealFont | undefined;
  const shaped: ShapedFont[] = [];
  const members: Member[] = [
    plainMember(pdf, PLAIN_FONTS.regular),
    ...SHAPED_FONTS.slice(0, -1).map((file) => shapedMember(pdf, file, shaped)),
    plainMember(pdf, PLAIN_FONTS.cjk),
    plainMember(pdf, PLAIN_FONTS.korean),
    shapedMember(pdf, SHAPED_FONTS.at(-1)!, shaped),
  ];
  const regular = fontStack(members, { cache: stackCaches.regular });
  return {
    regular,
    bold: latin1Or(standardSealFont('Helvetica-Bold'), regular),
    get script() {
      script ??= fontStack([plainMember(pdf, PLAIN_FONTS.script)], {
        placeholder: '?',
        cache: stackCaches.script,
      });
      return script;
    },
    mono: standardSealFont('Courier'),
    finish: () => shaped.forEach((font) => font.finish()),
  };
}

/** One font of a stack: what it covers and measures (shared), what it draws (per document). */
type Member = {
  /** The characters this font draws first, when it has them. */
  script?: RegExp;
  covers: (codePoint: number) => boolean;
  width: (text: string, size: number) => number;
  show: (register: FontRegistrar, text: string, size: number) => ShownRun[];
};

// A member reads and parses its font file on first use: a document in Latin script never
// loads the 16 MB of CJK fonts, nor the shaping fonts.
function plainMember(pdf: PDF, path: string): Member {
  let font: EmbeddedFont | undefined;
  // Each character is handed to the document's font (which records it for the subset) once;
  // after that its glyph id comes from the process's table.
  const recorded = new Set<string>();
  // Texts whose characters this document's font has recorded: a certificate draws the same
  // names, addresses, dates and words row after row.
  const drawn = new Set<string>();
  const encode = (font: EmbeddedFont, text: string): string => {
    const probe = probeFont(path);
    if (!drawn.has(text)) {
      let fresh: string[] | undefined;
      for (const char of distinctChars(probe, text)) {
        if (!recorded.has(char)) (fresh ??= []).push(char);
      }
      if (fresh) {
        const ids = font.encodeTextToGids(fresh.join(''));
        fresh.forEach((char, i) => {
          probe.gids.set(char, ids[i]);
          recorded.add(char);
        });
      }
      drawn.add(text);
    }
    // The line a text is shown with is the same in every document (its glyph ids): made once.
    const known = probe.texts.get(text);
    if (known) return known;
    const chars = Array.from(text);
    // Identity-H: two bytes per glyph id.
    const bytes = new Uint8Array(chars.length * 2);
    chars.forEach((char, i) => {
      const gid = probe.gids.get(char)!;
      bytes[i * 2] = gid >> 8;
      bytes[i * 2 + 1] = gid & 0xff;
    });
    return remember(probe.texts, text, showLine(bytes));
  };
  return {
    covers: (codePoint) => probeFont(path).font.canEncode(String.fromCodePoint(codePoint)),
    width: (text, size) => cachedWidth(probeFont(path), text) * size,
    show(register, text, size) {
      font ??= embedShared(pdf, path);
      return [{ before: '', font: register.font(font), size, glyphs: encode(font, text) }];
    },
  };
}

function shapedMember(pdf: PDF, file: ShapedFontSpec, created: ShapedFont[]): Member {
  const shapedFile = () => ({ name: file.name, bytes: fontFile(file.path) });
  let font: ShapedFont | undefined;
  // Coverage and widths come from the process's shaping face; the PDF font only when drawn.
  let measure: ReturnType<typeof measureShaped> | undefined;
  const measured = () => (measure ??= measureShaped(shapedFile()));
  return {
    script: file.script,
    covers: (codePoint) => measured().covers(codePoint),
    width: (text, size) => measured().width(text, size),
    show(register, text, size) {
      if (!font) {
        font = createShapedFont(pdf, shapedFile());
        created.push(font);
      }
      return [font.show(register.ref, text, size)];
    },
  };
}

// Characters that take the font of the run they are in when it has them: marks, joiners,
// variation selectors and skin tones always (they belong to the character before); spaces,
// punctuation and digits inside right-to-left text, so that "محمد عبد الله" stays one run.
const JOINING = /^[\p{M}\u200c\u200d\ufe00-\ufe0f\u{1f3fb}-\u{1f3ff}]$/u;
const NEUTRAL = /^[\s\p{P}\p{N}]$/u;
const IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\u{1f3fb}-\u{1f3ff}]$/u;

/**
 * What a font stack works out about texts, whichever document it draws them into: which
 * member draws each character, each text cleaned, split into runs (by member index) and
 * measured at size 1. Shared by every document's stack of the same members, so a seal does not
 * work out again what the last one did (the certificate's own words, the same names, dates).
 */
type StackCache = {
  choice: Map<string, number>;
  cleaned: Map<string, string>;
  runs: Map<string, Array<[number, string]>>;
  widths: Map<string, number>;
};

const stackCaches = {
  regular: newStackCache(),
  script: newStackCache(),
};

function newStackCache(): StackCache {
  return { choice: new Map(), cleaned: new Map(), runs: new Map(), widths: new Map() };
}

/** Stores `value` in a cache that starts over when full: the texts in use come back at once. */
export function remember<V>(map: Map<string, V>, key: string, value: V, max = 5_000): V {
  if (map.size >= max) map.clear();
  map.set(key, value);
  return value;
}

/**
 * A font stack: each character drawn by the first member that has it, in runs (one font
 * operator each); a character none has is drawn as a placeholder box, never a question mark.
 */
function fontStack(
  members: Member[],
  options: { placeholder?: string; cache: StackCache },
): SealFont {
  const { choice, cleaned, runs: known, widths } = options.cache;
  const memberFor = (char: string): number => {
    let index = choice.get(char);
    if (index === undefined) {
      const codePoint = char.codePointAt(0)!;
      index = members.findIndex((m) => m.script?.test(char) && m.covers(codePoint));
      if (index < 0) index = members.findIndex((member) => member.covers(codePoint));
      remember(choice, char, index);
    }
    return index;
  };
  const placeholder = options.placeholder ?? PLACEHOLDER;
  const clean = (text: string): string => {
    const found = cleaned.get(text);
    if (found !== undefined) return found;
    const drawn = Array.from(stripControls(text), (char) => {
      if (memberFor(char) >= 0) return char;
      if (IGNORABLE.test(char)) return '';
      const base = stripDiacritics(char);
      const drawable = base !== '' && Array.from(base).every((c) => memberFor(c) >= 0);
      return drawable ? base : placeholder;
    }).join('');
    return remember(cleaned, text, drawn);
  };
  const split = (text: string): Array<[number, string]> => {
    // Nearly all text is in the first font alone: one run, nothing to decide.
    let mixed = false;
    for (const char of text) {
      if (memberFor(char) > 0) {
        mixed = true;
        break;
      }
    }
    if (!mixed) return [[0, text]];
    const out: Array<{ index: number; text: string; rtl: boolean }> = [];
    for (const char of text) {
      const last = out.at(-1);
      const joins = JOINING.test(char) || (last?.rtl === true && NEUTRAL.test(char));
      if (last && joins && members[last.index].covers(char.codePointAt(0)!)) {
        last.text += char;
        continue;
      }
      const index = Math.max(0, memberFor(char));
      const rtl = RIGHT_TO_LEFT.test(char);
      if (last && last.index === index) {
        last.text += char;
        last.rtl ||= rtl;
      } else {
        out.push({ index, text: char, rtl });
      }
    }
    // Spaces and punctuation after right-to-left text belong to what follows it: kept in the
    // right-to-left run they would be drawn on its left ("<" of "محمد <m@x.com>").
    for (let i = 0; i < out.length - 1; i++) {
      const trailing = /[\s\p{P}\p{S}]+$/u.exec(out[i].text)?.[0];
      const next = members[out[i + 1].index];
      if (!trailing || trailing === out[i].text || !out[i].rtl) continue;
      if (!Array.from(trailing).every((c) => next.covers(c.codePointAt(0)!))) continue;
      out[i].text = out[i].text.slice(0, -trailing.length);
      out[i + 1].text = trailing + out[i + 1].text;
    }
    return out.map((run) => [run.index, run.text]);
  };
  // Layout measures the same strings many times over (shrinking to fit, wrapping).
  const runs = (text: string): Array<[number, string]> =>
    known.get(text) ?? remember(known, text, split(text));
  // Widths grow with the size: each text is measured once, at size 1. Wrapping a field's text
  // tries the same lines at up to ten sizes.
  const widthAtOne = (text: string): number => {
    const found = widths.get(text);
    if (found !== undefined) return found;
    const width = runs(text).reduce((total, [i, run]) => total + members[i].width(run, 1), 0);
    return remember(widths, text, width);
  };
  return {
    clean,
    width: (text, size) => widthAtOne(text) * size,
    measures: options.cache,
    show: (register, text, size) => {
      const found = runs(text);
      return found.length === 1
        ? members[found[0][0]].show(register, found[0][1], size)
        : found.flatMap(([i, run]) => members[i].show(register, run, size));
    },
  };
}

// Measuring through the font walks its tables glyph by glyph on every call, and layout measures
// the same characters over and over (wrapping, shrinking to fit): each character's advance is
// looked up once per process. The font's measure adds no kerning, so the sum is the same.
function cachedWidth({ font, advances }: Probe, text: string): number {
  let total = 0;
  for (const char of text) {
    let advance = advances.get(char);
    if (advance === undefined) {
      advance = font.widthOfTextAtSize(char, 1);
      advances.set(char, advance);
    }
    total += advance;
  }
  return total;
}

/**
 * Turns the TrueType 'post' table into format 3 (no glyph names). Glyph names are
 * useless in an Identity-H CID font, yet parsing Noto Sans's 3,000+ of them was the
 * largest single cost of sealing a small document.
 */
function withoutGlyphNames(ttf: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(ttf);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tableCount = view.getUint16(4);
  for (let i = 0; i < tableCount; i++) {
    const record = 12 + i * 16;
    if (String.fromCharCode(...bytes.subarray(record, record + 4)) !== 'post') continue;
    const offset = view.getUint32(record + 8);
    const length = view.getUint32(record + 12);
    if (length < 32 || view.getUint32(offset) === 0x00030000) return bytes;
    view.setUint32(offset, 0x00030000);
    let checksum = 0;
    for (let at = offset; at < offset + 32; at += 4)
      checksum = (checksum + view.getUint32(at)) >>> 0;
    view.setUint32(record + 4, checksum);
    view.setUint32(record + 12, 32);
    return bytes;
  }
  return bytes;
}

// The standard fonts' lines by text (the same in each of them): the sandbox mark and the
// certificate's labels are drawn on every page of every seal.
const standardLines = new Map<string, string>();

/** The content-stream line that shows a string of these bytes: `<…> Tj`. */
function showLine(bytes: Uint8Array): string {
  return `<${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').toUpperCase()}> Tj\n`;
}

// What each standard font works out about texts, shared by every document: what they clean to
// (also the identity of its measures), and their widths in thousandths of the size (the library
// looks every character's glyph name and width up on every call, and a certificate measures
// its labels on every page of every seal).
const standardCaches = new Map<
  Standard14FontName,
  { cleaned: Map<string, string>; widths: Map<string, number> }
>();

/** A standard-14 font: no embedding cost, but only Latin-1 characters survive cleaning. */
export function standardSealFont(name: Standard14FontName): SealFont {
  const metrics = Standard14Font.of(name);
  let caches = standardCaches.get(name);
  if (!caches) standardCaches.set(name, (caches = { cleaned: new Map(), widths: new Map() }));
  const { cleaned, widths } = caches;
  // The sum of the glyphs' widths (integers, as the library sums them), then scaled as it does.
  const thousandths = (text: string): number =>
    widths.get(text) ?? remember(widths, text, metrics.widthOfTextAtSize(text, 1000));
  return {
    measures: cleaned,
    clean: (text) => cleaned.get(text) ?? remember(cleaned, text, toLatin1(stripControls(text))),
    width: (text, size) => (thousandths(text) * size) / 1e3,
    // WinAnsi equals Latin-1 for the characters toLatin1 keeps.
    show: (register, text, size) => [
      {
        before: '',
        font: register.font(name),
        size,
        glyphs:
          standardLines.get(text) ??
          remember(
            standardLines,
            text,
            showLine(Uint8Array.from(text, (char) => Math.min(char.codePointAt(0) ?? 63, 0xff))),
          ),
      },
    ],
  };
}

/** True when every character of `text` can be drawn by `font` as is. */
export function fontCovers(font: SealFont, text: string): boolean {
  return font.clean(text) === stripControls(text);
}

// Fitted texts by the font's measures (shared by every document's copy of it), then by size,
// width and text: an audit certificate fits the same names, addresses and values into the same
// columns row after row.
const fitted = new WeakMap<object, Map<string, string>>();

/** Cleans `text` for `font` and shortens it with "..." until it fits `maxWidth` points. */
export function fitText(font: SealFont, text: string, size: number, maxWidth: number): string {
  const clean = font.clean(text);
  if (font.width(clean, size) <= maxWidth) return clean;
  let known = fitted.get(font.measures);
  if (!known) fitted.set(font.measures, (known = new Map()));
  const key = `${size} ${maxWidth} ${clean}`;
  return known.get(key) ?? remember(known, key, shorten(font, clean, size, maxWidth), 1_000);
}

function shorten(font: SealFont, clean: string, size: number, maxWidth: number): string {
  const chars = Array.from(clean);
  let low = 0;
  let high = chars.length;
  // Binary search on the prefix length: user agents can be hundreds of characters.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const candidate = `${chars.slice(0, mid).join('').trimEnd()}...`;
    if (font.width(candidate, size) <= maxWidth) low = mid;
    else high = mid - 1;
  }
  return `${chars.slice(0, low).join('').trimEnd()}...`;
}

/** Largest size in [minSize, maxSize] at which `text` fits `maxWidth`. */
export function fitSize(
  font: SealFont,
  text: string,
  maxSize: number,
  minSize: number,
  maxWidth: number,
): number {
  const widthAtOne = font.width(text, 1);
  if (widthAtOne <= 0) return maxSize;
  return Math.max(minSize, Math.min(maxSize, maxWidth / widthAtOne));
}

function stripControls(text: string): string {
  // drawText treats newlines as line breaks and control bytes render as garbage.
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}

function stripDiacritics(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ŁĐØ]/g, (c) => ({ Ł: 'L', Đ: 'D', Ø: 'O' })[c] ?? c)
    .replace(/[łđø]/g, (c) => ({ ł: 'l', đ: 'd', ø: 'o' })[c] ?? c);
}

function toLatin1(text: string): string {
  return Array.from(text, (char) => {
    const code = char.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return char;
    const base = stripDiacritics(char);
    return /^[\x20-\x7e]+$/.test(base) ? base : '?';
  }).join('');
}
