import type { PageCanvas } from './page-canvas.js';
import { RIGHT_TO_LEFT } from './shaped-font.js';

// The certificate pages of a language written right to left (Arabic) are the left-to-right
// layout seen in a mirror: every box keeps its size and moves to the other side, texts are
// right-aligned in their boxes and their runs laid out right to left. Layout code stays as it
// is and draws through this canvas.

const MIRRORED: Record<string, string> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '<': '>',
  '>': '<',
  '«': '»',
  '»': '«',
  '‹': '›',
  '›': '‹',
};

type Strength = 'R' | 'L' | 'N';

// Arabic punctuation (، ؛ ؟) is in the Arabic script's extensions, not the script itself.
const ARABIC_USE = /[\p{scx=Arabic}\p{scx=Hebrew}\p{scx=Syriac}\p{scx=Thaana}]/u;

function strength(char: string, before: Strength | undefined): Strength {
  // A mark (shadda, a vowel sign) belongs to the letter it sits on.
  if (/\p{M}/u.test(char) && before) return before;
  if (/\p{N}/u.test(char)) return 'L';
  if (RIGHT_TO_LEFT.test(char) || ARABIC_USE.test(char)) return 'R';
  return /\p{L}/u.test(char) ? 'L' : 'N';
}

/**
 * A line's runs in the order they are drawn from left to right, for a paragraph written right
 * to left (a small part of the Unicode bidirectional algorithm, enough for labels, names, dates
 * and addresses): runs of Arabic (with the spaces between its words) are handed to the font as
 * written, which shapes them right to left; runs of Latin letters and digits stay left to right;
 * punctuation between two left-to-right runs goes with them, any other is drawn right to left,
 * its brackets mirrored.
 */
export function visualRuns(text: string): string[] {
  const chars = Array.from(text);
  const kinds: Strength[] = [];
  for (const char of chars) kinds.push(strength(char, kinds.at(-1)));
  const brackets = resolveBrackets(chars, kinds);
  // Each neutral takes the direction of the strong characters around it when both agree, else
  // the paragraph's (R); the spaces between two Arabic words stay inside the Arabic run.
  const resolved: Array<{ char: string; dir: 'R' | 'L'; strong: boolean; joins: boolean }> = [];
  for (let i = 0; i < chars.length; i++) {
    if (kinds[i] !== 'N') {
      // A bracket is never part of an Arabic run: the Arabic font is not the one to draw it.
      const strong = !brackets.has(i);
      const dir = kinds[i] as 'R' | 'L';
      resolved.push({ char: chars[i], dir, strong, joins: strong || dir === 'L' });
      continue;
    }
    let end = i;
    while (end < chars.length && kinds[end] === 'N') end++;
    const before = kinds[i - 1];
    const after = kinds[end];
    const span = chars.slice(i, end);
    const dir = before === 'L' && after === 'L' ? 'L' : 'R';
    const spaces = span.every((c) => /\s/u.test(c));
    const joins = dir === 'L' || (spaces && before === 'R' && after === 'R');
    for (const char of span) resolved.push({ char, dir, strong: false, joins });
    i = end - 1;
  }
  const runs: Array<{ text: string; dir: 'R' | 'L'; shaped: boolean }> = [];
  for (const { char, dir, strong, joins } of resolved) {
    const last = runs.at(-1);
    const continues =
      last !== undefined &&
      last.dir === dir &&
      // Left to right: one run. Arabic: its letters and the spaces between its words. Other
      // right-to-left characters (punctuation): one run of their own.
      (dir === 'L' || (last.shaped ? strong || joins : !strong));
    if (continues) last.text += char;
    else runs.push({ text: char, dir, shaped: dir === 'R' && strong });
  }
  return runs.reverse().map((run) => {
    // Right-to-left punctuation is drawn by a left-to-right font: reversed and mirrored here.
    if (run.dir === 'L' || run.shaped) return run.text;
    return Array.from(run.text, (c) => MIRRORED[c] ?? c)
      .reverse()
      .join('');
  });
}

const OPENING = '([{<«‹';
const CLOSING = ')]}>»›';

/**
 * Paired brackets take one direction, both of them (the rule N0 of the bidirectional algorithm):
 * right to left when Arabic is inside; left to right when only Latin is, and Latin comes before
 * them (`B-B (PAdES)`). Sets both brackets' strength in `kinds`; returns their indexes.
 */
function resolveBrackets(chars: string[], kinds: Strength[]): Set<number> {
  const found = new Set<number>();
  const open: number[] = [];
  for (let i = 0; i < chars.length; i++) {
    if (OPENING.includes(chars[i])) open.push(i);
    const closing = CLOSING.indexOf(chars[i]);
    if (closing < 0) continue;
    const at = open.findLastIndex((o) => OPENING.indexOf(chars[o]) === closing);
    if (at < 0) continue;
    const start = open[at];
    open.length = at;
    const inside = kinds.slice(start + 1, i);
    let dir: Strength = 'N';
    if (inside.includes('R')) dir = 'R';
    else if (inside.includes('L')) {
      const before = kinds.slice(0, start).findLast((k) => k !== 'N') ?? 'R';
      dir = before === 'L' ? 'L' : 'R';
    }
    if (dir === 'N') continue;
    kinds[start] = kinds[i] = dir;
    found.add(start).add(i);
  }
  return found;
}

/** `canvas` seen in a mirror across a page `pageWidth` wide, for right-to-left pages. */
export function mirroredCanvas(canvas: PageCanvas, pageWidth: number): PageCanvas {
  return {
    text(font, text, x, y, size, color, options) {
      // Rotated and translucent texts (the sandbox mark) are decoration: drawn as they are.
      if (options?.angle !== undefined || options?.opacity !== undefined) {
        canvas.text(font, text, x, y, size, color, options);
        return;
      }
      // The text's box starts at x: mirrored, the text ends where the box started.
      let pen = pageWidth - x - font.width(text, size);
      for (const run of visualRuns(text)) {
        canvas.text(font, run, pen, y, size, color);
        pen += font.width(run, size);
      }
    },
    line: (x1, y1, x2, y2, color, width) =>
      canvas.line(pageWidth - x1, y1, pageWidth - x2, y2, color, width),
    rectangle: (x, y, width, height, color, lineWidth) =>
      canvas.rectangle(pageWidth - x - width, y, width, height, color, lineWidth),
    image: (image, x, y, width, height) =>
      canvas.image(image, pageWidth - x - width, y, width, height),
    fill: (x, y, width, height, color) =>
      canvas.fill(pageWidth - x - width, y, width, height, color),
    circle: (cx, cy, r, color, lineWidth) => canvas.circle(pageWidth - cx, cy, r, color, lineWidth),
    within: (matrix, draw) => canvas.within(matrix, draw),
    flush: () => canvas.flush(),
  };
}
