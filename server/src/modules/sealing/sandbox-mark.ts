import type { PDF, PDFPage } from '@libpdf/core';
import { readPageGeometry, visualToUser, type PageGeometry } from './page-geometry.js';
import type { PageCanvas, Rgb } from './page-canvas.js';
import { standardSealFont } from './seal-fonts.js';

export const SANDBOX_MARK_TEXT = 'SANDBOX - NOT LEGALLY BINDING';

const MARK_FONT = standardSealFont('Helvetica-Bold');
const MARK_RED: Rgb = [0.78, 0.05, 0.05];
const markWidth = (size: number): number => MARK_FONT.width(SANDBOX_MARK_TEXT, size);

/**
 * Draws the sandbox banner and diagonal watermark upright as displayed, whatever the page's
 * /Rotate or box, on the page's `canvas` (before what else it draws there: the mark is behind
 * it); the caller flushes the canvas.
 */
export function drawSandboxMark(pdf: PDF, page: PDFPage, canvas: PageCanvas): void {
  const geometry = readPageGeometry(pdf, page);
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
