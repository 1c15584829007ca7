import type { FastifyRequest } from 'fastify';
import { AppError, type FieldError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { documentFileKey } from '../storage/keys.js';
import { MAX_UPLOAD_BYTES } from './documents.schemas.js';
import { readAll, type Storage } from '../storage/storage.js';
import type { StoredUpload } from './documents.service.js';
import { requireOpenablePdf } from './pdf-open.js';
import { createEndsKeeper, describeNotPdf, inspectPdf, type UploadEnds } from './pdf-check.js';

/** The parts of a quick-create request: text fields, and the file already in storage. */
export type ParsedUpload = {
  fields: Record<string, string>;
  upload: StoredUpload | null;
  /** The stored file's first and last bytes, for the PDF check without reading it back. */
  ends: UploadEnds | null;
  errors: FieldError[];
};

// The uploaded name is shown back to people, never used as a path: keep its last segment,
// drop control characters, bound its length.
function cleanFilename(name: string | undefined): string {
  const last = (name ?? '').split(/[\\/]/).pop() ?? '';

  const clean = last
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255);
  return clean || 'document.pdf';
}

/**
 * Reads a multipart quick-create body, streaming the one file straight to storage (which
 * hashes it), so memory stays flat whatever the size. On any error the stored file is removed.
 */
export async function readQuickCreateParts(
  request: FastifyRequest,
  storage: Storage,
  /** Where the file goes, by the id of what it will belong to; a document's original by default. */
  keyOf: (id: string) => string = (id) => documentFileKey(id, 'original.pdf'),
): Promise<ParsedUpload> {
  const fields: Record<string, string> = {};
  const errors: FieldError[] = [];
  let upload: StoredUpload | null = null;
  let ends: UploadEnds | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || upload) {
          part.file.resume();
          await new Promise((resolve) => part.file.on('end', resolve));
          errors.push({
            path: part.fieldname,
            message: 'exactly one file is accepted, in the part named "file"',
          });
          continue;
        }
        const documentId = newId();
        const key = keyOf(documentId);
        const keeper = createEndsKeeper();
        // Stop at the limit instead of reading (and discarding) the rest of the upload.
        part.file.on('limit', () =>
          part.file.destroy(
            new AppError('payload_too_large', 'The file must be smaller than 50 MiB.'),
          ),
        );
        upload = { documentId, key, size: 0, sha256: '', filename: cleanFilename(part.filename) };
        const stored = await storage.put(key, keepingEnds(part.file, keeper), 'application/pdf');
        if (part.file.truncated) {
          throw new AppError('payload_too_large', 'The file must be smaller than 50 MiB.');
        }
        upload.size = stored.size;
        upload.sha256 = stored.sha256;
        ends = keeper.ends();
      } else {
        if (part.fieldname in fields) {
          errors.push({ path: part.fieldname, message: 'must be sent once' });
        }
        if (part.valueTruncated) {
          errors.push({ path: part.fieldname, message: 'is too long' });
        }
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    if (upload) await storage.delete(upload.key);
    throw isMultipartSyntaxError(err)
      ? new AppError('malformed_request', `Malformed multipart body: ${(err as Error).message}`)
      : err;
  }
  return { fields, upload, ends, errors };
}

// Room for the text parts around the file when judging Content-Length up front.
const MULTIPART_SLACK_BYTES = 1024 * 1024;

/** An upload route's onRequest hook: 413 before reading a body whose length is over the limit. */
export async function refuseOversizedUpload(request: FastifyRequest) {
  const length = Number(request.headers['content-length'] ?? 0);
  if (length >= MAX_UPLOAD_BYTES + MULTIPART_SLACK_BYTES) {
    throw new AppError('payload_too_large', 'The file must be smaller than 50 MiB.');
  }
}

/**
 * Every problem of a quick-create body in the order it answers them: the parts' own (repeated,
 * too long, a second file), then the text fields', then a missing file.
 */
export function quickCreateErrors(parts: ParsedUpload, fieldErrors: FieldError[]): FieldError[] {
  const errors = [...parts.errors, ...fieldErrors];
  if (!parts.upload) {
    errors.push({ path: 'file', message: 'a PDF file part named "file" is required' });
  }
  return errors;
}

/**
 * Refuses a stored upload that is not a PDF (415, saying what it is), that needs a password
 * (422 `pdf_encrypted`) or that no parser opens (422 `pdf_unreadable`). Well-formed files pass
 * on the structural check alone; the rest are opened by the lenient parser off the event loop.
 */
export async function requirePdf(
  storage: Storage,
  upload: StoredUpload,
  ends: UploadEnds | null,
): Promise<void> {
  const verdict = await inspectPdf(storage, upload.key, upload.size, ends ?? undefined);
  if (verdict === 'pdf') return;
  if (verdict === 'not_pdf') {
    const head =
      ends?.head ??
      (upload.size > 0 ? await storage.readRange(upload.key, 0, 1023) : Buffer.alloc(0));
    throw notPdf((await describeNotPdf(head, upload.size)) ?? 'not a PDF');
  }
  await requireOpenablePdf(ends?.whole() ?? (await readAll(storage, upload.key)));
}

/** The 415 for a file that is not a PDF, saying what it is instead. */
export function notPdf(what: string): AppError {
  return new AppError(
    'unsupported_media_type',
    `The file is not a PDF document: it is ${what}. Upload the document as a PDF.`,
  );
}

// The file's chunks on their way to storage, its first and last bytes kept on the way.
async function* keepingEnds(
  file: AsyncIterable<Buffer>,
  keeper: ReturnType<typeof createEndsKeeper>,
) {
  for await (const chunk of file) {
    keeper.add(chunk);
    yield chunk;
  }
}

// The multipart parser's own errors carry no code; recognise them by message so a broken body
// is a 400, not a 500.
function isMultipartSyntaxError(err: unknown): boolean {
  return (
    err instanceof Error &&
    !(err instanceof AppError) &&
    !(err as { code?: unknown }).code &&
    /multipart|Part terminated|boundary|Malformed part header/i.test(err.message)
  );
}
