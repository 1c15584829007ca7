import {
  ops,
  PdfString,
  type PDF,
  type PdfRef,
  type PDFExtGState,
  type PDFImage,
  type PDFPage,
} from '@libpdf/core';
import { adoptInheritedResources } from './page-geometry.js';
import type { FontRegistrar, SealFont } from './seal-fonts.js';

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
  let operators: Operator[] = [];
  // Texts drawn one after another share one text object (q BT … ET Q), which sets a colour or a
  // font only when it changes: three operators a text instead of eight. An audit certificate
  // writes hundreds of texts, and each operator is an object to build and to serialise.
  let block: { color: Rgb | null; font: string; size: number } | null = null;
  const endBlock = () => {
    if (block) operators.push(ops.endText(), ops.popGraphicsState());
    block = null;
  };
  const fontNames = new Map<unknown, string>();
  const register: FontRegistrar = {
    font(input) {
      let name = fontNames.get(input);
      if (!name) {
        name = page.registerFont(input);
        fontNames.set(input, name);
      }
      return name;
    },
    ref(ref) {
      let name = fontNames.get(ref);
      if (!name) {
        name = (page as unknown as PageResources).registerResource(ref, 'Font', 'F');
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

  return {
    text(font, text, x, y, size, color, options = {}) {
      if (!/\S/.test(text)) return;
      if (options.angle === undefined && options.opacity === undefined) {
        if (!block) {
          operators.push(ops.pushGraphicsState(), ops.beginText());
          block = { color: null, font: '', size: 0 };
        }
        if (block.color === null || block.color.some((c, i) => c !== color[i])) {
          operators.push(ops.setNonStrokingRGB(...color));
          block.color = color;
        }
        operators.push(ops.setTextMatrix(1, 0, 0, 1, x, y));
        for (const operator of font.show(register, text, size)) {
          if (operator.op === 'Tf') {
            const [name, at] = operator.operands as [string, number];
            if (block.font === name && block.size === at) continue;
            block.font = name;
            block.size = at;
          }
          operators.push(operator);
        }
        return;
      }
      endBlock();
      const radians = ((options.angle ?? 0) * Math.PI) / 180;
      const cos = Math.cos(radians);
      const sin = Math.sin(radians);
      operators.push(ops.pushGraphicsState());
      if (options.opacity !== undefined && options.opacity < 1) {
        operators.push(ops.setGraphicsState(`/${opacityName(options.opacity)}`));
      }
      operators.push(
        ops.setNonStrokingRGB(...color),
        ops.beginText(),
        ops.setTextMatrix(cos, sin, -sin, cos, x, y),
        ...font.show(register, text, size),
        ops.endText(),
        ops.popGraphicsState(),
      );
    },
    line(x1, y1, x2, y2, color, width) {
      endBlock();
      operators.push(
        ops.pushGraphicsState(),
        ops.setStrokingRGB(...color),
        ops.setLineWidth(width),
        ops.moveTo(x1, y1),
        ops.lineTo(x2, y2),
        ops.stroke(),
        ops.popGraphicsState(),
      );
    },
    rectangle(x, y, width, height, color, lineWidth) {
      endBlock();
      operators.push(
        ops.pushGraphicsState(),
        ops.setStrokingRGB(...color),
        ops.setLineWidth(lineWidth),
        ops.rectangle(x, y, width, height),
        ops.stroke(),
        ops.popGraphicsState(),
      );
    },
    image(image, x, y, width, height) {
      endBlock();
      const name = page.registerImage(image);
      operators.push(
        ops.pushGraphicsState(),
        ops.concatMatrix(width, 0, 0, height, x, y),
        ops.paintXObject(`/${name}`),
        ops.popGraphicsState(),
      );
    },
    fill(x, y, width, height, color) {
      endBlock();
      operators.push(
        ops.pushGraphicsState(),
        ops.setNonStrokingRGB(...color),
        ops.rectangle(x, y, width, height),
        ops.fill(),
        ops.popGraphicsState(),
      );
    },
    circle(cx, cy, r, color, lineWidth) {
      endBlock();
      // Four cubic Béziers, each a quarter: k makes them within 0.03% of the circle.
      const k = 0.5523 * r;
      operators.push(
        ops.pushGraphicsState(),
        lineWidth === null ? ops.setNonStrokingRGB(...color) : ops.setStrokingRGB(...color),
        ...(lineWidth === null ? [] : [ops.setLineWidth(lineWidth)]),
        ops.moveTo(cx + r, cy),
        ops.curveTo(cx + r, cy + k, cx + k, cy + r, cx, cy + r),
        ops.curveTo(cx - k, cy + r, cx - r, cy + k, cx - r, cy),
        ops.curveTo(cx - r, cy - k, cx - k, cy - r, cx, cy - r),
        ops.curveTo(cx + k, cy - r, cx + r, cy - k, cx + r, cy),
        ops.closePath(),
        lineWidth === null ? ops.fill() : ops.stroke(),
        ops.popGraphicsState(),
      );
    },
    within(matrix, draw) {
      endBlock();
      operators.push(ops.pushGraphicsState(), ops.concatMatrix(...matrix));
      draw();
      endBlock();
      operators.push(ops.popGraphicsState());
    },
    flush() {
      endBlock();
      if (operators.length === 0) return;
      (page as unknown as PageResources).appendContent(serialize(operators));
      operators = [];
    },
  };
}

// A content stream's bytes, written here rather than by @libpdf/core's serializer, which writes
// each operand character by character through a byte writer: that was a fifth of a seal with
// an audit certificate of many rows. The same bytes, save numbers (below). Nearly every operand
// is a number, a name or a hex string; the rest (a shaped text's arrays and marked-content
// dictionaries) are written by the library.
function serialize(operators: Operator[]): Uint8Array {
  let out = '';
  for (const operator of operators) {
    let line: string | null = '';
    for (const operand of operator.operands) {
      if (typeof operand === 'number') line += `${number(operand)} `;
      else if (typeof operand === 'string') line += `${operand} `;
      else if (operand instanceof PdfString && operand.format === 'hex') line += `${hex(operand)} `;
      else {
        line = null;
        break;
      }
    }
    out += line === null ? binary(operator.toBytes()) : line + operator.op;
    out += '\n';
  }
  // Every character is a byte (latin1): hex strings and the library's own bytes alike.
  return Buffer.from(out, 'latin1');
}

// A number as the library writes it: an integer plainly, else at most five decimals without
// trailing zeros. Rounded in binary, the shortest form of the result is those decimals (never an
// exponent: the smallest is 0.00001), without toFixed and the library's regular expression.
function number(value: number): string {
  if (Number.isInteger(value)) return String(value);
  const rounded = Math.round(value * 100_000) / 100_000;
  return rounded === 0 ? '0' : String(rounded);
}

// The fonts keep one PdfString for each text they draw, and a certificate draws the same names,
// dates and words many times: each is written out once.
const hexOf = new WeakMap<PdfString, string>();
function hex(string: PdfString): string {
  let found = hexOf.get(string);
  if (found === undefined) {
    found = `<${Buffer.from(string.bytes).toString('hex').toUpperCase()}>`;
    hexOf.set(string, found);
  }
  return found;
}

function binary(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
