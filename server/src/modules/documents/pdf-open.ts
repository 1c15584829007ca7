import { createBoundedWorker } from '../../lib/bounded-worker.js';
import { AppError } from '../../lib/errors.js';

/** What the lenient parser made of a file that failed the structural check. */
export type PdfOpening = { ok: true } | { ok: false; needsPassword: boolean; reason: string };

/**
 * What opening one file may decompress (bounded-inflate.ts): its object and cross-reference
 * streams, never its content, a few MB for the largest honest file.
 */
export const OPEN_INFLATE_BYTES = 32 * 1024 * 1024;

// Created on first use; unref'd, so it never keeps the process alive.
let worker: ReturnType<typeof createBoundedWorker<{ bytes: Uint8Array }, PdfOpening>> | undefined;

/**
 * Opens a file with a PDF header that the structural check could not vouch for (a damaged
 * cross-reference section, bytes after the end marker, an encryption dictionary) with the
 * lenient, repairing parser on a bounded thread, and refuses what it cannot open: 422
 * `pdf_encrypted` when a password is needed, 422 `pdf_unreadable` with the parser's reason
 * otherwise. Resolves for a file a viewer opens without a password and that has a page.
 */
export async function requireOpenablePdf(bytes: Uint8Array): Promise<void> {
  worker ??= createBoundedWorker({
    script: new URL('./pdf-open.worker.mjs', import.meta.url),
    announcesReady: true,
    heapMb: 512,
    deadlineMs: 10_000,
    failure: 'The PDF could not be opened',
  });
  let opening: PdfOpening;
  try {
    opening = await worker.run({ bytes });
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/\.$/, '') : String(err);
    throw unreadable(reason);
  }
  if (opening.ok) return;
  if (opening.needsPassword) {
    throw onFile(
      'pdf_encrypted',
      'The PDF is protected by a password that is needed to open it; remove the password (print or save it as a new PDF) and upload it again.',
    );
  }
  throw unreadable(opening.reason);
}

function unreadable(reason: string): AppError {
  return onFile(
    'pdf_unreadable',
    `The file starts like a PDF but cannot be opened: ${reason}. Save or export it as a PDF again and upload the new file.`,
  );
}

// Like every 422 about a part, it names the part in `errors`.
function onFile(code: 'pdf_encrypted' | 'pdf_unreadable', detail: string): AppError {
  return new AppError(code, detail, { errors: [{ path: 'file', message: detail }] });
}

/** The parser's verdict on this thread, for the worker. */
export async function openPdfHere(bytes: Uint8Array): Promise<PdfOpening> {
  const { PDF } = await import('@libpdf/core');
  let pdf: Awaited<ReturnType<typeof PDF.load>>;
  try {
    pdf = await PDF.load(bytes);
  } catch (err) {
    // A file whose encryption the parser cannot undo without a password often fails to
    // load at all ("Root Pages object is not a dictionary"): its trailer names /Encrypt.
    return {
      ok: false,
      needsPassword: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(
        '/Encrypt',
      ),
      reason: describe(err),
    };
  }
  if (pdf.isEncrypted && !pdf.isAuthenticated) {
    return { ok: false, needsPassword: true, reason: 'a password is needed to open it' };
  }
  if (pdf.getPageCount() === 0)
    return { ok: false, needsPassword: false, reason: 'it has no pages' };
  return { ok: true };
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s+/g, ' ').replace(/\.$/, '').slice(0, 300) || 'unknown reason';
}
