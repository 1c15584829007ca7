import { describe, expect, it } from 'vitest';
import { PDF, PdfRef, PdfStream, ops } from '@libpdf/core';
import { createPageCanvas, type Operator } from '../../server/src/modules/sealing/page-canvas.js';

// The canvas writes content-stream text itself (page-canvas.ts); what it writes must be what
// @libpdf/core's own operators serialise to, numbers included, or a viewer would draw something
// else than the layout asked for.

function drawnContent(draw: (canvas: ReturnType<typeof createPageCanvas>) => void): string {
  const pdf = PDF.create();
  const page = pdf.addPage({ size: 'a4' });
  const canvas = createPageCanvas(pdf, page);
  draw(canvas);
  canvas.flush();
  const contents = page.dict.get('Contents');
  const stream = contents instanceof PdfRef ? pdf.getObject(contents) : contents;
  if (!(stream instanceof PdfStream)) throw new Error('no content stream was appended');
  return Buffer.from(stream.data).toString('latin1');
}

const asLibraryWrites = (operators: Operator[]) =>
  `\n${operators.map((o) => Buffer.from(o.toBytes()).toString('latin1')).join('\n')}\n`;

// The same operators and operands on the same lines; numbers as written by the canvas: at most
// five decimals, never an exponent, and within 0.00001 of the library's (which rounds a
// half-way value away from zero, and writes what rounds to zero from below as -0).
function expectSameContent(drawn: string, library: string): void {
  const lines = (text: string) => text.split('\n').map((line) => line.split(' '));
  const ours = lines(drawn);
  const theirs = lines(library);
  expect(ours.map((line) => line.length)).toEqual(theirs.map((line) => line.length));
  ours.forEach((line, i) =>
    line.forEach((token, j) => {
      const expected = theirs[i][j];
      if (!/^-?[\d.]+$/.test(expected)) return expect(token).toBe(expected);
      expect(token).toMatch(/^-?\d+(\.\d{1,5})?$/);
      expect(token).not.toMatch(/^-0$|\.\d*0$/);
      expect(Math.abs(Number(token) - Number(expected))).toBeLessThanOrEqual(0.0000100001);
    }),
  );
}

// Integers, fractions of every length, values that round to zero (either sign) or to an
// integer, the largest a page uses, and counts of hundred-thousandths beyond 32 bits.
const NUMBERS = [
  0,
  1,
  -1,
  0.5,
  0.1,
  0.2 + 0.1,
  1 / 3,
  -2 / 3,
  0.05,
  0.12,
  0.78,
  123.456789,
  0.000004,
  -0.000004,
  0.000005,
  -0.000005,
  0.00001,
  -0.00001,
  0.999996,
  -0.999996,
  99999.999996,
  841.89 - 90,
  0.5523 * 7.3,
  14399.5,
  21474.83647,
  -21474.83648,
  12345678.123456,
  -98765432.000017,
];

describe('page canvas', () => {
  it('writes lines, rectangles, fills and circles as @libpdf/core writes them', () => {
    const color = [0.1, 1 / 3, 0.000004] as const;
    const drawn = drawnContent((canvas) => {
      for (const n of NUMBERS) {
        canvas.line(n, n * 2, -n, n / 7, color, n);
        canvas.rectangle(n, -n, n / 3, 7 * n, color, 0.75);
        canvas.fill(n / 9, n, n, n, color);
      }
      canvas.circle(10.5, 20.25, 3.3, color, 0.5);
      canvas.circle(10.5, 20.25, 1.8, color, null);
    });
    const k = (r: number) => 0.5523 * r;
    const circle = (cx: number, cy: number, r: number, stroke: boolean) => [
      ops.pushGraphicsState(),
      ...(stroke ? [ops.setStrokingRGB(...color), ops.setLineWidth(0.5)] : []),
      ...(stroke ? [] : [ops.setNonStrokingRGB(...color)]),
      ops.moveTo(cx + r, cy),
      ops.curveTo(cx + r, cy + k(r), cx + k(r), cy + r, cx, cy + r),
      ops.curveTo(cx - k(r), cy + r, cx - r, cy + k(r), cx - r, cy),
      ops.curveTo(cx - r, cy - k(r), cx - k(r), cy - r, cx, cy - r),
      ops.curveTo(cx + k(r), cy - r, cx + r, cy - k(r), cx + r, cy),
      ops.closePath(),
      stroke ? ops.stroke() : ops.fill(),
      ops.popGraphicsState(),
    ];
    expectSameContent(
      drawn,
      asLibraryWrites([
        ...NUMBERS.flatMap((n) => [
          ops.pushGraphicsState(),
          ops.setStrokingRGB(...color),
          ops.setLineWidth(n),
          ops.moveTo(n, n * 2),
          ops.lineTo(-n, n / 7),
          ops.stroke(),
          ops.popGraphicsState(),
          ops.pushGraphicsState(),
          ops.setStrokingRGB(...color),
          ops.setLineWidth(0.75),
          ops.rectangle(n, -n, n / 3, 7 * n),
          ops.stroke(),
          ops.popGraphicsState(),
          ops.pushGraphicsState(),
          ops.setNonStrokingRGB(...color),
          ops.rectangle(n / 9, n, n, n),
          ops.fill(),
          ops.popGraphicsState(),
        ]),
        ...circle(10.5, 20.25, 3.3, true),
        ...circle(10.5, 20.25, 1.8, false),
      ]),
    );
  });

  it('writes a transformed group as @libpdf/core writes it', () => {
    const matrix = [0, 1, -1, 0, 595.28, 0.000004] as const;
    const drawn = drawnContent((canvas) => {
      canvas.within(matrix, () => canvas.fill(1.5, 2.25, 3, 4, [1, 1, 1]));
    });
    expectSameContent(
      drawn,
      asLibraryWrites([
        ops.pushGraphicsState(),
        ops.concatMatrix(...matrix),
        ops.pushGraphicsState(),
        ops.setNonStrokingRGB(1, 1, 1),
        ops.rectangle(1.5, 2.25, 3, 4),
        ops.fill(),
        ops.popGraphicsState(),
        ops.popGraphicsState(),
      ]),
    );
  });
});
