import { AppError } from '../../lib/errors.js';
import type { PageSize } from './field-types.js';

/** Pages past this count are not read: no document of ours needs more. */
const MAX_PAGES = 10_000;

/**
 * Each page's size as a viewer shows it (CropBox within MediaBox, turned by /Rotate), in
 * points rounded to 1/100. A file it cannot read is a 422 on `file`.
 */
export async function readPageSizes(bytes: Uint8Array): Promise<PageSize[]> {
  const [{ PDF }, { readPageGeometry }] = await (libraries ??= loadLibraries());
  let pages: PageSize[];
  try {
    const pdf = await PDF.load(bytes);
    pages = pdf
      .getPages()
      .slice(0, MAX_PAGES)
      .map((page) => {
        const { visualWidth, visualHeight } = readPageGeometry(pdf, page);
        return { width: round(visualWidth), height: round(visualHeight) };
      });
  } catch (err) {
    const detail = `The PDF's pages could not be read: ${err instanceof Error ? err.message : String(err)}`;
    throw new AppError('validation_failed', detail, {
      errors: [{ path: 'file', message: detail }],
    });
  }
  if (pages.length === 0) {
    const detail = 'The PDF has no pages to place fields on.';
    throw new AppError('validation_failed', detail, {
      errors: [{ path: 'file', message: detail }],
    });
  }
  return pages;
}

// Loaded on first use, like sealing: most requests never read a page. Kept, because each
// import() goes through the module loader again (and its hooks under tsx).
let libraries: ReturnType<typeof loadLibraries> | undefined;
function loadLibraries() {
  return Promise.all([import('@libpdf/core'), import('../sealing/page-geometry.js')]);
}

const round = (n: number) => Math.round(n * 100) / 100;
