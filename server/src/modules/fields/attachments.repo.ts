import type { DbOrTrx } from '../../db/handle.js';
import type { FieldAttachmentsTable } from '../../db/schema.js';

/** A stored attachment of an `attachment` field (decisions §15). */
export type AttachmentRow = FieldAttachmentsTable;

/** Records an attachment whose file is already stored. */
export async function insertAttachment(db: DbOrTrx, row: AttachmentRow): Promise<void> {
  await db.insertInto('field_attachments').values(row).execute();
}

/** The document's attachments, oldest first. */
export async function listAttachments(db: DbOrTrx, documentId: string): Promise<AttachmentRow[]> {
  return db
    .selectFrom('field_attachments')
    .selectAll()
    .where('document_id', '=', documentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** One attachment of a document, or undefined. */
export async function findAttachment(
  db: DbOrTrx,
  documentId: string,
  id: string,
): Promise<AttachmentRow | undefined> {
  return db
    .selectFrom('field_attachments')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The bytes the document's attachments hold together (its attachment storage). */
export async function attachmentBytes(db: DbOrTrx, documentId: string): Promise<number> {
  const row = await db
    .selectFrom('field_attachments')
    .select((eb) => eb.fn.sum<number | string | null>('size_bytes').as('total'))
    .where('document_id', '=', documentId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Removes attachment rows by id (their files are the caller's to delete). */
export async function deleteAttachments(db: DbOrTrx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('field_attachments').where('id', 'in', ids).execute();
}
