import {
  PdfArray,
  PdfDict,
  PdfNumber,
  PdfRef,
  type PDF,
  type PDFPage,
  type PdfObject,
} from '@libpdf/core';
import { createPageCanvas, type PageCanvas, type Rgb } from './page-canvas.js';
import { standardSealFont } from './seal-fonts.js';

export const SANDBOX_MARK_TEXT = 'SANDBOX - NOT LEGALLY BINDING';

type Box = { x: number; y: number; width: number; height: number };

/** What a reader sees of a page: its visible box and how the viewer turns it. */
export type PageGeometry = {
  box: Box;
  rotation: 0 | 90 | 180 | 270;
  /** Width and height as displayed, i.e. after /Rotate. */
  visualWidth: number;
  visualHeight: number;
};

const MARK_FONT = standardSealFont('Helvetica-Bold');
const MARK_RED: Rgb = [0.78, 0.05, 0.05];
const markWidth = (size: number): number => MARK_FONT.width(SANDBOX_MARK_TEXT, size);

/** Draws the sandbox banner and diagonal watermark upright as displayed, whatever the page's /Rotate or box. */
export function drawSandboxMark(pdf: PDF, page: PDFPage): void {
  const geometry = readPageGeometry(pdf, page);
  adoptInheritedResources(pdf, page);
  const canvas = createPageCanvas(pdf, page);
  const { visualWidth: vw, visualHeight: vh } = geometry;

  const bannerSize = Math.min(10, (vw - 20) / markWidth(1));
  const bannerWidth = markWidth(bannerSize);
  for (const v of [vh - 14 - bannerSize * 0.7, 10]) {
    drawUpright(canvas, geometry, (vw - bannerWidth) / 2, v, 0, bannerSize, 1);
  }

  const angle = Math.atan2(vh, vw);
  const size = Math.min(64, (Math.hypot(vw, vh) * 0.75) / markWidth(1));
  const textWidth = markWidth(size);
  const capHeight = size * 0.72;
  // Start the baseline so that the text's centre lands on the page's centre.
  const u = vw / 2 - (textWidth / 2) * Math.cos(angle) + (capHeight / 2) * Math.sin(angle);
  const v = vh / 2 - (textWidth / 2) * Math.sin(angle) - (capHeight / 2) * Math.cos(angle);
  drawUpright(canvas, geometry, u, v, (angle * 180) / Math.PI, size, 0.18);
  canvas.flush();
}

function drawUpright(
  canvas: PageCanvas,
  geometry: PageGeometry,
  u: number,
  v: number,
  visualAngle: number,
  size: number,
  opacity: number,
): void {
  const { x, y } = visualToUser(geometry, u, v);
  canvas.text(MARK_FONT, SANDBOX_MARK_TEXT, x, y, size, MARK_RED, {
    angle: geometry.rotation + visualAngle,
    opacity,
  });
}

/** Maps a point given in displayed coordinates (origin bottom-left as seen) to user space. */
export function visualToUser(
  geometry: PageGeometry,
  u: number,
  v: number,
): { x: number; y: number } {
  const { x: x0, y: y0, width: w, height: h } = geometry.box;
  switch (geometry.rotation) {
    case 90:
      return { x: x0 + w - v, y: y0 + u };
    case 180:
      return { x: x0 + w - u, y: y0 + h - v };
    case 270:
      return { x: x0 + v, y: y0 + h - u };
    default:
      return { x: x0 + u, y: y0 + v };
  }
}

/** Reads CropBox/MediaBox/Rotate including values inherited from the page tree. */
export function readPageGeometry(pdf: PDF, page: PDFPage): PageGeometry {
  const media = toBox(resolve(pdf, inheritedAttribute(pdf, page.dict, 'MediaBox'))) ?? {
    x: 0,
    y: 0,
    width: 612,
    height: 792,
  };
  const crop = toBox(resolve(pdf, inheritedAttribute(pdf, page.dict, 'CropBox')));
  const box = crop ? intersect(crop, media) : media;
  const rotateValue = resolve(pdf, inheritedAttribute(pdf, page.dict, 'Rotate'));
  const raw = rotateValue instanceof PdfNumber ? Math.round(rotateValue.value / 90) * 90 : 0;
  const rotation = (((raw % 360) + 360) % 360) as PageGeometry['rotation'];
  const sideways = rotation === 90 || rotation === 270;
  return {
    box,
    rotation,
    visualWidth: sideways ? box.height : box.width,
    visualHeight: sideways ? box.width : box.height,
  };
}

// @libpdf/core only looks at the page's own /Resources and would otherwise create an
// empty one, hiding fonts and images the page inherits from its parents.
function adoptInheritedResources(pdf: PDF, page: PDFPage): void {
  if (page.dict.has('Resources')) return;
  const inherited = inheritedAttribute(pdf, page.dict, 'Resources');
  if (inherited instanceof PdfRef) page.dict.set('Resources', inherited);
  else if (inherited instanceof PdfDict) page.dict.set('Resources', inherited.clone());
}

function inheritedAttribute(pdf: PDF, node: PdfDict, key: string): PdfObject | undefined {
  let current: PdfDict | undefined = node;
  // The depth limit guards against a /Parent cycle in a malformed file.
  for (let depth = 0; current && depth < 64; depth++) {
    const value = current.get(key);
    if (value !== undefined) return value;
    const parent = resolve(pdf, current.get('Parent'));
    current = parent instanceof PdfDict ? parent : undefined;
  }
  return undefined;
}

function resolve(pdf: PDF, value: PdfObject | undefined): PdfObject | undefined {
  return value instanceof PdfRef ? (pdf.getObject(value) ?? undefined) : value;
}

function toBox(value: PdfObject | undefined): Box | undefined {
  if (!(value instanceof PdfArray) || value.length < 4) return undefined;
  const numbers = [0, 1, 2, 3].map((i) => value.at(i));
  if (!numbers.every((n): n is PdfNumber => n instanceof PdfNumber)) return undefined;
  const [x1, y1, x2, y2] = numbers.map((n) => n.value);
  const box = {
    x: Math.min(x1, x2),
    y: Math.min(y1, y2),
    width: Math.abs(x2 - x1),
    height: Math.abs(y2 - y1),
  };
  return box.width > 0 && box.height > 0 ? box : undefined;
}

function intersect(a: Box, b: Box): Box {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const width = Math.min(a.x + a.width, b.x + b.width) - x;
  const height = Math.min(a.y + a.height, b.y + b.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : b;
}
