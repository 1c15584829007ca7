import { createBoundedWorker } from '../../lib/bounded-worker.js';
import { AppError } from '../../lib/errors.js';
import type { PageSize } from './field-types.js';

/** Pages past this count are not read: no document of ours needs more. */
const MAX_PAGES = 10_000;
/**
 * Files up to this size are read on the calling thread (a fraction of a millisecond for an
 * ordinary contract; the worst seen, a page tree nested 5,000 deep in 413 KB, took 78 ms);
 * larger ones on a bounded thread, so that no upload stalls the service.
 */
const INLINE_BYTES = 256 * 1024;

// Integrators send the same template again and again: its pages are read once. Keyed by the
// file's SHA-256, which storage computed while it wrote the upload; a few hundred small arrays.
const known = new Map<string, PageSize[]>();
const KNOWN_MAX = 500;

// Created on first use; unref'd, so it never keeps the process alive.
let worker: ReturnType<typeof createBoundedWorker<{ bytes: Uint8Array }, PageSize[]>> | undefined;

/**
 * Each page's size as a viewer shows it (CropBox within MediaBox, turned by /Rotate), in
 * points rounded to 1/100. A file it cannot read is a 422 on `file`; so is one that takes over
 * 10 s or 256 MB to read.
 */
export async function readPageSizes(bytes: Uint8Array, sha256?: string): Promise<PageSize[]> {
  const cached = sha256 ? knownPageSizes(sha256) : null;
  if (cached) return cached;
  let pages: PageSize[];
  try {
    if (bytes.length <= INLINE_BYTES) {
      pages = await readPageSizesHere(bytes);
    } else {
      worker ??= createBoundedWorker({
        script: new URL('./page-sizes.worker.mjs', import.meta.url),
        heapMb: 256,
        deadlineMs: 10_000,
        failure: "The PDF's pages could not be read",
      });
      pages = await worker.run({ bytes });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
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
  if (sha256) {
    if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value!);
    known.set(
      sha256,
      pages.map((p) => ({ ...p })),
    );
  }
  return pages;
}

/** The page sizes of a file read before, by its SHA-256; null when it was not. */
export function knownPageSizes(sha256: string): PageSize[] | null {
  return known.get(sha256)?.map((p) => ({ ...p })) ?? null;
}

/** readPageSizes on this thread, for small files and for the worker. */
export async function readPageSizesHere(bytes: Uint8Array): Promise<PageSize[]> {
  const [{ PDF }, { readPageGeometry }] = await (libraries ??= loadLibraries());
  const pdf = await PDF.load(bytes);
  return pdf
    .getPages()
    .slice(0, MAX_PAGES)
    .map((page) => {
      const { visualWidth, visualHeight } = readPageGeometry(pdf, page);
      return { width: round(visualWidth), height: round(visualHeight) };
    });
}

// Loaded on first use, like sealing: most requests never read a page. Kept, because each
// import() goes through the module loader again (and its hooks under tsx).
let libraries: ReturnType<typeof loadLibraries> | undefined;
function loadLibraries() {
  return Promise.all([import('@libpdf/core'), import('../sealing/page-geometry.js')]);
}

const round = (n: number) => Math.round(n * 100) / 100;
