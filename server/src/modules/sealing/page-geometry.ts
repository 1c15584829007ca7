import {
  PdfArray,
  PdfDict,
  PdfNumber,
  PdfRef,
  type PDF,
  type PDFPage,
  type PdfObject,
} from '@libpdf/core';

type Box = { x: number; y: number; width: number; height: number };

/** What a reader sees of a page: its visible box and how the viewer turns it. */
export type PageGeometry = {
  box: Box;
  rotation: 0 | 90 | 180 | 270;
  /** Width and height as displayed, i.e. after /Rotate. */
  visualWidth: number;
  visualHeight: number;
};

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

/** A page attribute, from the page itself or the nearest ancestor that sets it. */
export function inheritedAttribute(pdf: PDF, node: PdfDict, key: string): PdfObject | undefined {
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

// @libpdf/core only looks at the page's own /Resources and would otherwise create an
// empty one, hiding fonts and images the page inherits from its parents.
export function adoptInheritedResources(pdf: PDF, page: PDFPage): void {
  if (page.dict.has('Resources')) return;
  const inherited = inheritedAttribute(pdf, page.dict, 'Resources');
  if (inherited instanceof PdfRef) page.dict.set('Resources', inherited);
  else if (inherited instanceof PdfDict) page.dict.set('Resources', inherited.clone());
}
