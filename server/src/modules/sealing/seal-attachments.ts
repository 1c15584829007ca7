import {
  PdfArray,
  PdfDict,
  PdfName,
  PdfRef,
  PdfString,
  type PDF,
  type PdfObject,
} from '@libpdf/core';
import type { Db } from '../../db/handle.js';
import { format, messages } from '../../i18n/index.js';
import { listAttachments } from '../fields/attachments.repo.js';
import type { FieldRow } from '../fields/fields.repo.js';
import { readAll, type Storage } from '../storage/storage.js';
import { keepUncompressed } from './native-deflate.js';
import { ATTACHMENT_NAME_PREFIX, type SealAttachment } from './seal-types.js';

/**
 * The files signees attached to filled `attachment` fields (decisions §15), in field order,
 * read from storage to be embedded: each named `attachment-N-<its file name>` (N from 1, so
 * two files of one name stay two), with its SHA-256 for the audit certificate. Uploads no
 * field holds are not sealed.
 */
export async function gatherSealAttachments(
  deps: { db: Db; storage: Storage },
  documentId: string,
  fields: FieldRow[],
): Promise<SealAttachment[]> {
  const used = fields
    .filter((f) => f.type === 'attachment' && typeof f.value === 'string' && f.value !== '')
    .map((f) => f.value as string);
  if (used.length === 0) return [];
  const byId = new Map((await listAttachments(deps.db.kysely, documentId)).map((a) => [a.id, a]));
  const out: SealAttachment[] = [];
  for (const id of used) {
    const row = byId.get(id);
    if (!row) continue;
    out.push({
      id: row.id,
      name: `${ATTACHMENT_NAME_PREFIX}${out.length + 1}-${row.filename}`,
      filename: row.filename,
      mimeType: row.content_type,
      sha256: row.sha256,
      bytes: await readAll(deps.storage, row.file),
    });
  }
  return out;
}

/**
 * Embeds each attachment as an associated file of the document (PDF 2.0 /AF on the catalog,
 * relationship /Supplement) and in /EmbeddedFiles, where viewers and pdfdetach list them:
 * the bytes exactly as stored. Before the signature, so that the seal covers them.
 */
export function embedAttachments(pdf: PDF, attachments: SealAttachment[], sealedAt: Date): void {
  if (attachments.length === 0) return;
  const resolve = (value: PdfObject | undefined) =>
    value instanceof PdfRef ? (pdf.getObject(value) ?? undefined) : value;
  const refs: PdfRef[] = [];
  for (const file of attachments) {
    pdf.attachments.add(file.name, file.bytes, {
      mimeType: file.mimeType,
      description: `Attached by a signee: ${file.filename} (SHA-256 ${file.sha256})`.slice(0, 500),
      createdAt: sealedAt,
      modifiedAt: sealedAt,
      overwrite: true,
    });
    const catalog = pdf.getCatalog();
    const names = resolve(catalog.get('Names'));
    const tree = names instanceof PdfDict ? resolve(names.get('EmbeddedFiles')) : undefined;
    const list = tree instanceof PdfDict ? resolve(tree.get('Names')) : undefined;
    const items = list instanceof PdfArray ? list.toArray() : [];
    const at = items.findIndex((x) => x instanceof PdfString && x.asString() === file.name);
    const ref = items[at + 1];
    const spec = at >= 0 ? resolve(ref) : undefined;
    if (!(ref instanceof PdfRef) || !(spec instanceof PdfDict)) {
      throw new Error('an attachment was not added to /EmbeddedFiles');
    }
    spec.set('AFRelationship', PdfName.of('Supplement'));
    // As for the evidence (evidence.ts): the MIME type's name is written again, escaped once.
    const files = resolve(spec.get('EF'));
    const stream = files instanceof PdfDict ? resolve(files.get('F')) : undefined;
    if (stream instanceof PdfDict) {
      stream.set('Subtype', PdfName.of(file.mimeType));
      keepUncompressed(stream, file.bytes);
    }
    refs.push(ref);
  }
  const catalog = pdf.getCatalog();
  const earlier = resolve(catalog.get('AF'));
  catalog.set(
    'AF',
    new PdfArray([...(earlier instanceof PdfArray ? earlier.toArray() : []), ...refs]),
  );
}

/** The certificate's line for each attachment: its name as uploaded and its SHA-256. */
export function attachmentFacts(
  attachments: SealAttachment[],
  language: string,
): Array<{ label: string; value: string }> {
  const m = messages(language).seal;
  return attachments.map((a) => ({
    label: m.attachedFile,
    value: format(m.attachedFileValue, { name: a.filename, sha256: a.sha256 }),
  }));
}
