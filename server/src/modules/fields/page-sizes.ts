import { createBoundedWorker } from '../../lib/bounded-worker.js';
import { AppError } from '../../lib/errors.js';
import type { PageSize } from './field-types.js';

/** Pages past this count are not read: no document of ours needs more. */
const MAX_PAGES = 10_000;
/**
 * What one read may decompress (object and cross-reference streams: page sizes need no
 * content stream). An ordinary contract needs kilobytes, a 10,000-page file a few MB; a 255 KB
 * object stream inflating to 250 MB is refused at this point instead of filling memory.
 */
export const PAGE_SIZES_INFLATE_BYTES = 32 * 1024 * 1024;

// Integrators send the same template again and again: its pages are read once. Keyed by the
// file's SHA-256, which storage computed while it wrote the upload; a few hundred small arrays.
const known = new Map<string, PageSize[]>();
const KNOWN_MAX = 500;
// Reads under way, by SHA-256: the same file asked for again waits for the one read.
const reading = new Map<string, Promise<PageSize[]>>();

// Created on first use; unref'd, so it never keeps the process alive.
let worker: ReturnType<typeof createBoundedWorker<{ bytes: Uint8Array }, PageSize[]>> | undefined;

/**
 * Each page's size as a viewer shows it (CropBox within MediaBox, turned by /Rotate), in
 * points rounded to 1/100, read on a bounded thread whatever the file's size: an uploaded PDF
 * is never parsed on the event loop (a 56 KB file can take seconds to give up on). A file it
 * cannot read is a 422 on `file` (`isUnreadablePages` tells it from our own failures); so is
 * one that takes over 10 s, 256 MB of heap or PAGE_SIZES_INFLATE_BYTES decompressed to read.
 */
export async function readPageSizes(bytes: Uint8Array, sha256?: string): Promise<PageSize[]> {
  const cached = sha256 ? knownPageSizes(sha256) : null;
  if (cached) return cached;
  if (!sha256) return readOffThread(bytes);
  let pending = reading.get(sha256);
  if (!pending) {
    pending = readOffThread(bytes).finally(() => reading.delete(sha256));
    reading.set(sha256, pending);
  }
  const pages = await pending;
  if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value!);
  known.set(
    sha256,
    pages.map((p) => ({ ...p })),
  );
  return pages.map((p) => ({ ...p }));
}

async function readOffThread(bytes: Uint8Array): Promise<PageSize[]> {
  worker ??= createBoundedWorker({
    script: new URL('./page-sizes.worker.mjs', import.meta.url),
    announcesReady: true,
    heapMb: 256,
    deadlineMs: 10_000,
    failure: "The PDF's pages could not be read",
  });
  let pages: PageSize[];
  try {
    pages = await worker.run({ bytes });
  } catch (err) {
    if (err instanceof AppError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    // The thread itself failing (its script did not load) is ours: a 500, never stored.
    if (THREAD_STOPPED.test(reason)) throw err;
    throw unreadablePages(`The PDF's pages could not be read: ${reason}`);
  }
  if (pages.length === 0) throw unreadablePages('The PDF has no pages to place fields on.');
  return pages;
}

// bounded-worker.ts's words for a thread that ended for a reason other than the job's input.
const THREAD_STOPPED = /its worker thread stopped/;

/** The 422 on `file` for a document whose pages cannot be read, with its detail. */
export function unreadablePages(detail: string): AppError {
  return new AppError('validation_failed', detail, {
    errors: [{ path: 'file', message: detail }],
  });
}

/** True for readPageSizes' refusal of the file itself (not a failure of ours). */
export function isUnreadablePages(err: unknown): err is AppError {
  return (
    err instanceof AppError && err.code === 'validation_failed' && err.errors?.[0]?.path === 'file'
  );
}

/** The page sizes of a file read before, by its SHA-256; null when it was not. */
export function knownPageSizes(sha256: string): PageSize[] | null {
  return known.get(sha256)?.map((p) => ({ ...p })) ?? null;
}

/** readPageSizes on this thread: for the worker only. */
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
