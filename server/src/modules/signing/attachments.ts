import type { Db } from '../../db/handle.js';
import { AppError, type FieldError } from '../../lib/errors.js';
import { newId, nowIso } from '../../lib/ids.js';
import * as repo from '../documents/documents.repo.js';
import { createEndsKeeper } from '../documents/pdf-check.js';
import { requirePdf } from '../documents/upload.js';
import { readPageSizes } from '../fields/page-sizes.js';
import {
  attachmentBytes,
  deleteAttachments,
  insertAttachment,
  listAttachments,
  type AttachmentRow,
} from '../fields/attachments.repo.js';
import type { FieldRow } from '../fields/fields.repo.js';
import { listFields } from '../fields/fields.repo.js';
import { documentFileKey } from '../storage/keys.js';
import type { Storage } from '../storage/storage.js';
import { assertTurn, resolveLink } from './signing-steps.js';
import { sniffType } from '../../lib/sniff-type.js';
import { reencodeImage } from './uploaded-image.js';

/** The largest file a signee may attach (decisions §15). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** What all of a document's attachments may hold together. */
export const MAX_DOCUMENT_ATTACHMENT_BYTES = 25 * 1024 * 1024;
// An attached photo of an ID or a scan: 8192 x 8192 at most, 50 megapixels.
const IMAGE_LIMITS = { maxPixels: 50_000_000, maxSide: 8192 };

/** What attaching needs. */
export type AttachmentDeps = { db: Db; storage: Storage };

/** One uploaded file, read whole (it is at most MAX_ATTACHMENT_BYTES). */
export type AttachmentUpload = { bytes: Buffer; filename: string };

/**
 * Stores a file a signee attaches for their `attachment` field: PDF, PNG or JPEG by its magic
 * bytes (415 otherwise), at most MAX_ATTACHMENT_BYTES (413) and the document's attachments at
 * most MAX_DOCUMENT_ATTACHMENT_BYTES together (413). A PDF is checked as an upload is (its
 * structure, else the lenient parser, then its pages, each on a bounded thread: 422); an image
 * is decoded and encoded again (uploaded-image.ts) and the new bytes are what is kept. With
 * `fieldId` the upload is for that field only, and replaces an unused earlier one for it.
 */
export async function attachFile(
  deps: AttachmentDeps,
  input: { token: string; fieldId?: string; upload: AttachmentUpload },
): Promise<{ attachment: AttachmentRow }> {
  const { signee, document } = await resolveLink(deps.db.kysely, input.token);
  assertTurn(document, await repo.listSignees(deps.db.kysely, document.id), signee, 'sign');
  const own = (await listFields(deps.db.kysely, document.id)).filter(
    (f) => f.signee_id === signee.id && f.type === 'attachment',
  );
  if (own.length === 0) {
    throw refused('fieldId', 'you have no attachment field on this document');
  }
  if (input.fieldId !== undefined && !own.some((f) => f.id === input.fieldId)) {
    throw refused('fieldId', 'is not one of your attachment fields');
  }
  const { bytes: raw, filename } = input.upload;
  if (raw.length > MAX_ATTACHMENT_BYTES) throw tooLarge(raw.length);
  const type = sniffType(raw.subarray(0, 8));
  if (!type) {
    throw new AppError(
      'unsupported_media_type',
      'An attachment must be a PDF, PNG or JPEG file (judged by its contents, not its name).',
    );
  }
  const bytes =
    type === 'application/pdf'
      ? raw
      : await reencodeImage(raw, type, {
          ...IMAGE_LIMITS,
          output: 'same',
          path: 'file',
          what: 'attached image',
        });
  if (bytes.length > MAX_ATTACHMENT_BYTES) throw tooLarge(bytes.length);
  // An unused earlier upload for the same field is replaced: it stops counting.
  const existing = await listAttachments(deps.db.kysely, document.id);
  const used = new Set(own.map((f) => f.value).filter((v) => typeof v === 'string'));
  const replaced = existing.filter(
    (a) => input.fieldId && a.field_id === input.fieldId && !used.has(a.id),
  );
  const total =
    (await attachmentBytes(deps.db.kysely, document.id)) -
    replaced.reduce((sum, a) => sum + a.size_bytes, 0);
  if (total + bytes.length > MAX_DOCUMENT_ATTACHMENT_BYTES) {
    throw new AppError(
      'payload_too_large',
      `A document's attachments may hold ${MAX_DOCUMENT_ATTACHMENT_BYTES / 1024 / 1024} MiB together; this one would make ${(
        (total + bytes.length) /
        1024 /
        1024
      ).toFixed(1)} MiB.`,
    );
  }
  const id = newId();
  const extension = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' }[type];
  const key = documentFileKey(document.id, `attachment-${id}.${extension}`);
  const stored = await deps.storage.put(key, bytes, type);
  try {
    if (type === 'application/pdf') await checkPdf(deps.storage, key, bytes, stored);
    const row: AttachmentRow = {
      id,
      document_id: document.id,
      signee_id: signee.id,
      field_id: input.fieldId ?? null,
      file: key,
      filename: cleanFilename(filename, extension),
      content_type: type,
      size_bytes: stored.size,
      sha256: stored.sha256,
      created_at: nowIso(),
    };
    await insertAttachment(deps.db.kysely, row);
    await deleteAttachments(
      deps.db.kysely,
      replaced.map((a) => a.id),
    );
    for (const old of replaced) await deps.storage.delete(old.file);
    return { attachment: row };
  } catch (err) {
    await deps.storage.delete(key);
    throw err;
  }
}

// The PDF checks of an upload: structure or the lenient parser (415/422), then its pages.
async function checkPdf(
  storage: Storage,
  key: string,
  bytes: Buffer,
  stored: { size: number; sha256: string },
): Promise<void> {
  const keeper = createEndsKeeper();
  keeper.add(bytes);
  await requirePdf(
    storage,
    { documentId: '', key, size: stored.size, sha256: stored.sha256, filename: '' },
    keeper.ends(),
  );
  await readPageSizes(bytes, stored.sha256);
}

/**
 * Checks the attachment ids a signee sent as their attachment fields' values: each one of
 * this signee's uploads on this document, for that field when it was uploaded for one, and
 * not used twice. `indexOf` gives a field's position in what was sent, for `fields[N].value`.
 */
export async function checkAttachmentValues(
  db: Db,
  input: {
    documentId: string;
    signeeId: string;
    own: FieldRow[];
    values: Map<string, string | boolean>;
    indexOf: (fieldId: string) => number;
  },
): Promise<FieldError[]> {
  const fields = input.own.filter(
    (f) => f.type === 'attachment' && typeof input.values.get(f.id) === 'string',
  );
  const wanted = fields.filter((f) => input.values.get(f.id) !== '');
  if (wanted.length === 0) return [];
  const byId = new Map(
    (await listAttachments(db.kysely, input.documentId)).map((a) => [a.id, a] as const),
  );
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const field of wanted) {
    const id = input.values.get(field.id) as string;
    const found = byId.get(id);
    const at = (message: string) =>
      errors.push({ path: `fields[${input.indexOf(field.id)}].value`, message });
    if (!found || found.signee_id !== input.signeeId) at('is not an attachment you uploaded');
    else if (found.field_id !== null && found.field_id !== field.id) {
      at('was uploaded for another field');
    } else if (seen.has(id)) at('is already the value of another field');
    seen.add(id);
  }
  return errors;
}

/** The file name as shown (never a path): its last segment, no control characters, bounded. */
function cleanFilename(name: string, extension: string): string {
  const last = (name.split(/[\\/]/).pop() ?? '')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);
  return last || `attachment.${extension}`;
}

function refused(path: string, message: string): AppError {
  return new AppError('validation_failed', `The attachment was refused: ${message}.`, {
    errors: [{ path, message }],
  });
}

function tooLarge(size: number): AppError {
  return new AppError(
    'payload_too_large',
    `An attachment must be at most ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB; this file has ${(size / 1024 / 1024).toFixed(1)} MiB.`,
  );
}
