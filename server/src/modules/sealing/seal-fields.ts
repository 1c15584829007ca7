import type { PDF, PDFPage } from '@libpdf/core';
import type { PageCanvas, Rgb } from './page-canvas.js';
import { readPageGeometry, type PageGeometry } from './page-geometry.js';
import {
  fitSize,
  fitText,
  fontCovers,
  remember,
  type SealFont,
  type SealFonts,
} from './seal-fonts.js';
import type { SealField, SealMark } from './seal-types.js';

const INK: Rgb = [0.05, 0.12, 0.4];
const TEXT: Rgb = [0.1, 0.1, 0.1];
const WHITE: Rgb = [1, 1, 1];
const MIN_TEXT_SIZE = 5;
const MAX_TEXT_SIZE = 12;

type Box = { x: number; y: number; width: number; height: number };
type Matrix = readonly [number, number, number, number, number, number];

/**
 * Draws every field's value inside its box on the original page, upright as the page is
 * displayed: signature and initials images keep their aspect ratio, text shrinks or wraps to
 * stay inside, a ticked checkbox gets a check mark, a radio a round mark before its chosen option,
 * a number its text as entered; empty fields (and hidden ones: stored empty) draw nothing. A field that
 * came from a text tag first gets its tag painted over. Each page is drawn on the canvas
 * `canvasFor` gives, which the caller flushes.
 */
export function drawFieldValues(
  pdf: PDF,
  fonts: SealFonts,
  fields: SealField[],
  canvasFor: (page: PDFPage) => PageCanvas,
): void {
  const pages = pdf.getPages();
  const byPage = new Map<number, SealField[]>();
  for (const field of fields) {
    const list = byPage.get(field.page) ?? [];
    list.push(field);
    byPage.set(field.page, list);
  }
  for (const [number, onPage] of byPage) {
    const page = pages[number - 1];
    if (!page) continue;
    const geometry = readPageGeometry(pdf, page);
    const canvas = canvasFor(page);
    canvas.within(displayedSpace(geometry), () => {
      for (const field of onPage) {
        const box = bottomUp(geometry, field);
        if (field.tagBox) {
          const tag = bottomUp(geometry, field.tagBox);
          // A hair wider than the tag: anti-aliased glyph edges would otherwise peek out.
          canvas.fill(tag.x - 0.5, tag.y - 0.5, tag.width + 1, tag.height + 1, WHITE);
        }
        drawValue(pdf, fonts, canvas, field, box);
      }
    });
  }
}

// The matrix from displayed space (origin at the bottom-left as seen) to the page's user space.
function displayedSpace(g: PageGeometry): Matrix {
  const { x, y, width: w, height: h } = g.box;
  switch (g.rotation) {
    case 90:
      return [0, 1, -1, 0, x + w, y];
    case 180:
      return [-1, 0, 0, -1, x + w, y + h];
    case 270:
      return [0, -1, 1, 0, x, y + h];
    default:
      return [1, 0, 0, 1, x, y];
  }
}

// A box measured from the displayed top-left, in displayed space measured from the bottom-left.
function bottomUp(g: PageGeometry, box: Box): Box {
  return { x: box.x, y: g.visualHeight - box.y - box.height, width: box.width, height: box.height };
}

function drawValue(pdf: PDF, fonts: SealFonts, canvas: PageCanvas, field: SealField, box: Box) {
  if (field.value === null || field.value === false) return;
  switch (field.type) {
    case 'signature':
    case 'initials':
      return drawMark(pdf, fonts, canvas, field.mark ?? {}, String(field.value), box);
    case 'checkbox':
      return drawCheck(canvas, box);
    case 'radio':
      return drawChoice(fonts.regular, canvas, String(field.value), box);
    default:
      return drawText(fonts.regular, canvas, String(field.value), box);
  }
}

function drawMark(
  pdf: PDF,
  fonts: SealFonts,
  canvas: PageCanvas,
  mark: SealMark,
  fallback: string,
  box: Box,
) {
  if (mark.image && mark.image.length > 0) {
    try {
      const image = pdf.embedPng(mark.image);
      const pad = Math.min(2, box.width / 10, box.height / 10);
      const scale = Math.min(
        (box.width - 2 * pad) / image.width,
        (box.height - 2 * pad) / image.height,
      );
      const width = image.width * scale;
      const height = image.height * scale;
      canvas.image(
        image,
        box.x + (box.width - width) / 2,
        box.y + (box.height - height) / 2,
        width,
        height,
      );
      return;
    } catch {
      // An unreadable image must not block sealing: the typed form is drawn instead.
    }
  }
  const text = (mark.typed ?? fallback).trim();
  const font = fontCovers(fonts.script, text) ? fonts.script : fonts.regular;
  const clean = font.clean(text);
  const size = Math.min(fitSize(font, clean, 40, MIN_TEXT_SIZE, box.width - 4), box.height * 0.8);
  const line = fitText(font, clean, size, box.width - 4);
  const x = box.x + (box.width - font.width(line, size)) / 2;
  canvas.text(font, line, x, box.y + (box.height - size * 0.7) / 2, size, INK);
}

function drawCheck(canvas: PageCanvas, box: Box) {
  const side = Math.min(box.width, box.height);
  const x = box.x + (box.width - side) / 2;
  const y = box.y + (box.height - side) / 2;
  const width = Math.max(1, side / 8);
  canvas.line(x + side * 0.18, y + side * 0.5, x + side * 0.42, y + side * 0.22, INK, width);
  canvas.line(x + side * 0.42, y + side * 0.22, x + side * 0.85, y + side * 0.82, INK, width);
}

// A radio's chosen option: a filled round mark at the box's left, then the option's text (the
// box is a field's, sized for one value: the other options are not drawn, the certificate
// names the chosen one too).
function drawChoice(font: SealFont, canvas: PageCanvas, option: string, box: Box) {
  const side = Math.min(box.height, box.width / 3, 14);
  const r = side * 0.4;
  const [cx, cy] = [box.x + side / 2, box.y + box.height / 2];
  canvas.circle(cx, cy, r, INK, Math.max(0.5, r / 6));
  canvas.circle(cx, cy, r * 0.55, INK, null);
  const rest = { ...box, x: box.x + side + 1, width: box.width - side - 1 };
  if (rest.width > 4) drawText(font, canvas, option, rest);
}

/** Where a text's lines go in its box: the first baseline above the box's bottom, then down. */
type TextLayout = { size: number; lines: string[]; firstBaseline: number; lineHeight: number };

// Layouts by the font's measures (shared by every document's copy of it), then by box size and
// text: the same value in the same size of box (initials on every page, a date in each signee's
// date field) is laid out once per process.
const layouts = new WeakMap<object, Map<string, TextLayout>>();

function drawText(font: SealFont, canvas: PageCanvas, text: string, box: Box) {
  const clean = font.clean(text.replace(/\s+/g, ' ').trim());
  let known = layouts.get(font.measures);
  if (!known) layouts.set(font.measures, (known = new Map()));
  const key = `${box.width} ${box.height} ${clean}`;
  const layout =
    known.get(key) ?? remember(known, key, layoutText(font, clean, box.width, box.height), 1_000);
  let baseline = box.y + layout.firstBaseline;
  for (const line of layout.lines) {
    canvas.text(font, line, box.x + 1, baseline, layout.size, TEXT);
    baseline -= layout.lineHeight;
  }
}

// The largest size (up to MAX_TEXT_SIZE and the box's height) at which the text fits the box:
// on one line when that keeps it large enough, else wrapped at spaces over several lines (a
// binary search over sizes); at the smallest size what still does not fit is cut with "...".
function layoutText(
  font: SealFont,
  clean: string,
  boxWidth: number,
  boxHeight: number,
): TextLayout {
  const width = boxWidth - 2;
  const largest = Math.min(MAX_TEXT_SIZE, boxHeight * 0.75);
  const oneLine = Math.min(largest, width / Math.max(font.width(clean, 1), 1e-6));
  // Tall enough for a second line at the one-line size: wrapping may give a larger size.
  const mayWrap = boxHeight >= oneLine * 2.3 && oneLine < largest;
  if (!mayWrap && oneLine >= MIN_TEXT_SIZE) {
    return {
      size: oneLine,
      lines: [clean],
      firstBaseline: (boxHeight - oneLine * 0.7) / 2,
      lineHeight: 0,
    };
  }
  const fits = (size: number) => wrap(font, clean, size, width).length * size * 1.15 <= boxHeight;
  let [low, high] = [MIN_TEXT_SIZE, largest];
  if (!fits(low)) high = low;
  for (let step = 0; step < 8 && high - low > 0.25; step++) {
    const mid = (low + high) / 2;
    if (fits(mid)) low = mid;
    else high = mid;
  }
  const size = fits(high) ? high : low;
  const lineHeight = size * 1.15;
  const lines = wrap(font, clean, size, width);
  const fitting = Math.max(1, Math.floor(boxHeight / lineHeight));
  const shown = lines.slice(0, fitting);
  if (lines.length > fitting) {
    shown[fitting - 1] = fitText(font, lines.slice(fitting - 1).join(' '), size, width);
  }
  return {
    size,
    lines: shown.map((line) => fitText(font, line, size, width)),
    firstBaseline: (boxHeight + shown.length * lineHeight) / 2 - size * 0.95,
    lineHeight,
  };
}

/** `text` broken at spaces into lines no wider than `width` at `size`. */
export function wrap(font: SealFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.width(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}
