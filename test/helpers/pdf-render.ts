import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A gray render of one page at 72 dpi: 1 pixel = 1 point of the page as displayed. */
export type Render = { width: number; height: number; pixels: Buffer };

/** A box on a page, in points from its top-left corner as displayed. */
export type Box = { x: number; y: number; width: number; height: number };

/** Renders one page of a PDF (a path, or its bytes) with pdftoppm at 72 dpi, in gray. */
export function renderPage(pdf: string | Uint8Array, page: number): Render {
  const scratch = mkdtempSync(path.join(tmpdir(), 'signet-render-'));
  try {
    let file = pdf;
    if (typeof file !== 'string') {
      file = path.join(scratch, 'in.pdf');
      writeFileSync(file, pdf);
    }
    const out = path.join(scratch, 'page');
    const run = spawnSync('pdftoppm', [
      ...['-r', '72', '-gray', '-f', String(page), '-l', String(page), '-singlefile'],
      file,
      out,
    ]);
    if (run.status !== 0) throw new Error(`pdftoppm failed: ${String(run.stderr)}`);
    const pgm = readFileSync(`${out}.pgm`);
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.toString('latin1', 0, 40))!;
    return {
      width: Number(header[1]),
      height: Number(header[2]),
      pixels: pgm.subarray(header[0].length),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The share of dark pixels inside a box. */
export function inkIn(render: Render, box: Box): number {
  let dark = 0;
  let all = 0;
  for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y++) {
    for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x++) {
      all++;
      if (render.pixels[y * render.width + x] < 160) dark++;
    }
  }
  return dark / Math.max(1, all);
}
