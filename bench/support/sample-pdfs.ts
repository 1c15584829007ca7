// Generated input PDFs shared by the sealing benchmarks (nothing downloaded, nothing committed):
// a text contract, an illustrated report with embedded fonts, and a large scan.
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { PDF, PdfDict, PdfName, PdfNumber, type PDFPage } from '@libpdf/core';
import { expoFont } from './peer-stacks.js';

/** `pages` A4 pages of running text in Helvetica. */
export async function textPdf(pages: number): Promise<Uint8Array> {
  const pdf = PDF.create();
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage({ size: 'a4' });
    page.drawText(`Contract page ${i + 1}`, { x: 60, y: 760, size: 22 });
    const body = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(30);
    page.drawText(body, { x: 60, y: 720, size: 11, maxWidth: 470, lineHeight: 15 });
  }
  return pdf.save();
}

// An RGB image XObject, Flate-compressed, drawn at `box` ([x, y, width, height]) by the page's
// content; a page holds one such image under the name /Scan.
function drawRawImage(
  pdf: PDF,
  page: PDFPage,
  side: number,
  samples: Uint8Array,
  box: [number, number, number, number],
): void {
  const image = pdf.createStream(
    {
      Type: PdfName.of('XObject'),
      Subtype: PdfName.of('Image'),
      Width: PdfNumber.of(side),
      Height: PdfNumber.of(side),
      ColorSpace: PdfName.of('DeviceRGB'),
      BitsPerComponent: PdfNumber.of(8),
      Filter: PdfName.of('FlateDecode'),
    },
    new Uint8Array(deflateSync(samples, { level: 1 })),
  );
  page.getResources().set('XObject', PdfDict.of({ Scan: image }));
  const [x, y, w, h] = box;
  page.dict.set(
    'Contents',
    pdf.createStream({}, new TextEncoder().encode(`q ${w} 0 0 ${h} ${x} ${y} cm /Scan Do Q`)),
  );
}

/**
 * `pages` A4 pages, each with a heading and a paragraph in two embedded TrueType fonts (Noto
 * Sans regular and italic, subset as a word processor exports them) and a unique photo-like
 * picture (a gradient with noise, ~60 KB compressed): an illustrated report of ~6 MB at 100.
 */
export async function illustratedPdf(pages: number): Promise<Uint8Array> {
  const pdf = PDF.create();
  const regular = pdf.embedFont(expoFont('noto-sans', 'NotoSans'));
  const italic = pdf.embedFont(expoFont('noto-sans', 'NotoSans', '400Regular_Italic'));
  const side = 150;
  const body =
    'Quarterly figures for the region, with the survey photographs taken on site. Ünal, Łódź, ' +
    'Ærøskøbing and Göteborg are covered in the appendix. ';
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage({ size: 'a4' });
    const noise = randomBytes(side * side * 3);
    const samples = new Uint8Array(side * side * 3);
    for (let p = 0; p < side * side; p++) {
      const x = p % side;
      const y = Math.floor(p / side);
      samples[p * 3] = (x + i * 7) & 0xff;
      samples[p * 3 + 1] = (y * 2 + i) & 0xff;
      samples[p * 3 + 2] = ((x + y) / 2 + (noise[p * 3] & 0x1f)) & 0xff;
    }
    drawRawImage(pdf, page, side, samples, [60, 330, 475, 356]);
    page.drawText(`Site report ${i + 1}`, { x: 60, y: 770, size: 22, font: regular });
    page.drawText(body.repeat(6), {
      x: 60,
      y: 300,
      size: 11,
      maxWidth: 470,
      lineHeight: 15,
      font: i % 2 ? italic : regular,
    });
  }
  pdf.fonts.finalize(true);
  return pdf.save();
}

/**
 * `pages` A4 pages, each carrying a unique, incompressible image, like a scanned contract,
 * sized so that the file is about `targetBytes`.
 */
export async function scannedPdf(pages: number, targetBytes: number): Promise<Uint8Array> {
  const pdf = PDF.create();
  const side = Math.floor(Math.sqrt(targetBytes / pages / 3));
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage({ size: 'a4' });
    drawRawImage(pdf, page, side, randomBytes(side * side * 3), [60, 250, 475, 475]);
    page.drawText(`Scanned page ${i + 1}`, { x: 60, y: 780, size: 14 });
  }
  return pdf.save();
}
