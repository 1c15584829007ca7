import { createBoundedWorker } from '../../lib/bounded-worker.js';
import { AppError } from '../../lib/errors.js';
import type { TextTagOptions, TextTagScan } from './text-tags.js';

type Request = { bytes: Uint8Array; options: TextTagOptions };

// Created on first use; unref'd, so it never keeps the process alive.
let worker: ReturnType<typeof createBoundedWorker<Request, TextTagScan>> | undefined;

/**
 * Scans a PDF's text tags on a bounded thread (256 MB, 10 s): an untrusted file's parse and
 * text extraction never run on the event loop. A file pdf.js cannot read is a 422 on `file`.
 */
export async function scanTextTagsOffThread(
  bytes: Uint8Array,
  options: TextTagOptions,
): Promise<TextTagScan> {
  worker ??= createBoundedWorker<Request, TextTagScan>({
    script: new URL('./text-tags.worker.mjs', import.meta.url),
    announcesReady: true,
    heapMb: 256,
    deadlineMs: 10_000,
    failure: "The PDF's text could not be read for tags",
  });
  try {
    return await worker.run({ bytes, options });
  } catch (err) {
    if (err instanceof AppError) throw err;
    const detail = `The PDF's text could not be read for tags: ${err instanceof Error ? err.message : String(err)}`;
    throw new AppError('validation_failed', detail, {
      errors: [{ path: 'file', message: detail }],
    });
  }
}
