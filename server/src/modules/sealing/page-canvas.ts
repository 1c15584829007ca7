import {
  ops,
  type PDF,
  type PdfRef,
  type PDFExtGState,
  type PDFImage,
  type PDFPage,
} from '@libpdf/core';
import { adoptInheritedResources } from './page-geometry.js';
import type { FontRegistrar, SealFont, ShownRun } from './seal-fonts.js';

// PDFPage.registerResource and appendContent are public in the library, not in its type
// declarations.
type PageResources = {
  registerResource: (ref: PdfRef, type: string, prefix: string) => string;
  appendContent: (content: Uint8Array) => void;
};

/** RGB components in 0..1. */
export type Rgb = readonly [number, number, number];

/** One content-stream operator, as @libpdf/core builds them. */
export type Operator = ReturnType<typeof ops.stroke>;

// One ExtGState object per opacity per document, shared by all pages, instead of one per
// page: 300 marked pages would otherwise add 300 identical objects.
const opacityStates = new WeakMap<PDF, Map<number, PDFExtGState>>();

function opacityState(pdf: PDF, opacity: number): PDFExtGState {
  let states = opacityStates.get(pdf);
  if (!states) {
    states = new Map();
    opacityStates.set(pdf, states);
  }
  let state = states.get(opacity);
  if (!state) {
    state = pdf.createExtGState({ fillOpacity: opacity });
    states.set(opacity, state);
  }
  return state;
}

/**
 * Collects drawing operators for one page and writes them as a single content stream.
 * @libpdf/core's drawText/drawLine each append a separate stream object, which for an
 * audit trail of a few hundred rows means thousands of tiny objects to write and hash.
 */
export type PageCanvas = {
  text: (
    font: SealFont,
    text: string,
    x: number,
    y: number,
    size: number,
    color: Rgb,
    options?: { angle?: number; opacity?: number },
  ) => void;
  line: (x1: number, y1: number, x2: number, y2: number, color: Rgb, width: number) => void;
  rectangle: (
    x: number,
    y: number,
    width: number,
    height: number,
    color: Rgb,
    lineWidth: number,
  ) => void;
  image: (image: PDFImage, x: number, y: number, width: number, height: number) => void;
  /** A filled rectangle. */
  fill: (x: number, y: number, width: number, height: number, color: Rgb) => void;
  /** A circle of radius `r` around (cx, cy): stroked `lineWidth` wide, or filled when null. */
  circle: (cx: number, cy: number, r: number, color: Rgb, lineWidth: number | null) => void;
  /**
   * Draws what `draw` draws in another coordinate system: the matrix `[a b c d e f]` maps its
   * points to the page's (a rotated page's displayed space, for instance).
   */
  within: (
    matrix: readonly [number, number, number, number, number, number],
    draw: () => void,
  ) => void;
  /** Appends everything drawn so far to the page; the canvas can keep drawing after. */
  flush: () => void;
};

/** A canvas on a page of the original: the resources it inherits adopted first. */
export function pageCanvas(pdf: PDF, page: PDFPage): PageCanvas {
  adoptInheritedResources(pdf, page);
  return createPageCanvas(pdf, page);
}

/** Starts a canvas on `page`; nothing reaches the page until `flush()`. */
export function createPageCanvas(pdf: PDF, page: PDFPage): PageCanvas {
  // The content stream as it is drawn: written as text here, where @libpdf/core's operator
  // objects were built, kept and then serialised one operand at a time (a third of a field
  // table's cost on the audit certificate).
  let content = '';
  // Texts drawn one after another share one text object (q BT … ET Q), which sets a colour or a
  // font only when it changes: three operators a text instead of eight. An audit certificate
  // writes hundreds of texts.
  let block: { color: Rgb | null; font: string; size: number } | null = null;
  const endBlock = () => {
    if (block) content += 'ET\nQ\n';
    block = null;
  };
  const fontNames = new Map<unknown, string>();
  const register: FontRegistrar = {
    font(input) {
      let name = fontNames.get(input);
      if (!name) {
        name = `/${page.registerFont(input)}`;
        fontNames.set(input, name);
      }
      return name;
    },
    ref(ref) {
      let name = fontNames.get(ref);
      if (!name) {
        name = `/${(page as unknown as PageResources).registerResource(ref, 'Font', 'F')}`;
        fontNames.set(ref, name);
      }
      return name;
    },
  };
  const opacityNames = new Map<number, string>();
  const opacityName = (opacity: number): string => {
    let name = opacityNames.get(opacity);
    if (!name) {
      name = page.registerExtGState(opacityState(pdf, opacity));
      opacityNames.set(opacity, name);
    }
    return name;
  };
  // A text's runs, each after its font and size (left out where the text object has them).
  const show = (runs: ShownRun[], current: { font: string; size: number }) => {
    for (const run of runs) {
      content += run.before;
      if (current.font !== run.font || current.size !== run.size) {
        content += `${run.font} ${number(run.size)} Tf\n`;
        current.font = run.font;
        current.size = run.size;
      }
      content += run.glyphs;
    }
  };

  return {
    text(font, text, x, y, size, color, options = {}) {
      if (!/\S/.test(text)) return;
      if (options.angle === undefined && options.opacity === undefined) {
        if (!block) {
          content += 'q\nBT\n';
          block = { color: null, font: '', size: 0 };
        }
        if (block.color === null || block.color.some((c, i) => c !== color[i])) {
          content += rgb(color, 'rg');
          block.color = color;
        }
        content += `1 0 0 1 ${number(x)} ${number(y)} Tm\n`;
        show(font.show(register, text, size), block);
        return;
      }
      endBlock();
      const radians = ((options.angle ?? 0) * Math.PI) / 180;
      const cos = number(Math.cos(radians));
      const sin = Math.sin(radians);
      content += 'q\n';
      if (options.opacity !== undefined && options.opacity < 1) {
        content += `/${opacityName(options.opacity)} gs\n`;
      }
      content += `${rgb(color, 'rg')}BT\n${cos} ${number(sin)} ${number(-sin)} ${cos} ${number(x)} ${number(y)} Tm\n`;
      show(font.show(register, text, size), { font: '', size: 0 });
      content += 'ET\nQ\n';
    },
    line(x1, y1, x2, y2, color, width) {
      endBlock();
      content += `q\n${rgb(color, 'RG')}${number(width)} w\n${number(x1)} ${number(y1)} m\n${number(x2)} ${number(y2)} l\nS\nQ\n`;
    },
    rectangle(x, y, width, height, color, lineWidth) {
      endBlock();
      content += `q\n${rgb(color, 'RG')}${number(lineWidth)} w\n${box(x, y, width, height)}S\nQ\n`;
    },
    image(image, x, y, width, height) {
      endBlock();
      const name = page.registerImage(image);
      content += `q\n${number(width)} 0 0 ${number(height)} ${number(x)} ${number(y)} cm\n/${name} Do\nQ\n`;
    },
    fill(x, y, width, height, color) {
      endBlock();
      content += `q\n${rgb(color, 'rg')}${box(x, y, width, height)}f\nQ\n`;
    },
    circle(cx, cy, r, color, lineWidth) {
      endBlock();
      // Four cubic Béziers, each a quarter: k makes them within 0.03% of the circle.
      const k = 0.5523 * r;
      const curve = (...points: number[]) => `${points.map(number).join(' ')} c\n`;
      content +=
        `q\n${lineWidth === null ? rgb(color, 'rg') : `${rgb(color, 'RG')}${number(lineWidth)} w\n`}` +
        `${number(cx + r)} ${number(cy)} m\n` +
        curve(cx + r, cy + k, cx + k, cy + r, cx, cy + r) +
        curve(cx - k, cy + r, cx - r, cy + k, cx - r, cy) +
        curve(cx - r, cy - k, cx - k, cy - r, cx, cy - r) +
        curve(cx + k, cy - r, cx + r, cy - k, cx + r, cy) +
        `h\n${lineWidth === null ? 'f' : 'S'}\nQ\n`;
    },
    within(matrix, draw) {
      endBlock();
      content += `q\n${matrix.map(number).join(' ')} cm\n`;
      draw();
      endBlock();
      content += 'Q\n';
    },
    flush() {
      endBlock();
      if (content === '') return;
      // Every character is a byte (latin1): hex strings and the library's own bytes alike.
      (page as unknown as PageResources).appendContent(Buffer.from(content, 'latin1'));
      content = '';
    },
  };
}

function rgb([r, g, b]: Rgb, op: 'rg' | 'RG'): string {
  return `${number(r)} ${number(g)} ${number(b)} ${op}\n`;
}

function box(x: number, y: number, width: number, height: number): string {
  return `${number(x)} ${number(y)} ${number(width)} ${number(height)} re\n`;
}

/**
 * Content-stream lines for operators @libpdf/core builds (a shaped text's arrays, marked-content
 * dictionaries): the library's bytes, each operator on a line, but for numbers and names, written
 * here (the library writes each character through a byte writer).
 */
export function contentLines(operators: Operator[]): string {
  let out = '';
  for (const operator of operators) {
    let line: string | null = '';
    for (const operand of operator.operands) {
      if (typeof operand === 'number') line += `${number(operand)} `;
      else if (typeof operand === 'string') line += `${operand} `;
      else {
        line = null;
        break;
      }
    }
    out += line === null ? binary(operator.toBytes()) : line + operator.op;
    out += '\n';
  }
  return out;
}

// A number as the library writes it: an integer plainly, else at most five decimals without
// trailing zeros (never an exponent: the smallest is 0.00001). Written from the integer count of
// hundred-thousandths, which is what String() of that count divided back gives, at half the cost
// (a seal writes thousands of coordinates); outside 32-bit counts, by that division.
function number(value: number): string {
  if (Number.isInteger(value)) return String(value);
  const scaled = Math.round(value * 100_000);
  if (scaled === 0) return '0';
  if (!(Math.abs(scaled) < 2 ** 31)) return String(scaled / 100_000);
  const sign = scaled < 0 ? '-' : '';
  const count = Math.abs(scaled);
  const whole = Math.floor(count / 100_000);
  let fraction = count - whole * 100_000;
  if (fraction === 0) return `${sign}${whole}`;
  let digits = 5;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  const written = String(fraction);
  return `${sign}${whole}.${'0000'.slice(0, digits - written.length)}${written}`;
}

function binary(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
