import type { Kysely } from 'kysely';

/**
 * Files a signee attaches to their `attachment` fields (decisions §15): one row per upload,
 * stored like the document's own files (`file`, a storage key under the document's), its
 * name as uploaded (shown, never used as a path), what the bytes are (sniffed, never
 * declared), their size (counted against the document's 25 MiB) and SHA-256 (on the audit
 * certificate). `field_id` is the field it was uploaded for, when the upload named one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('field_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) =>
      c.notNull().references('documents.id').onDelete('cascade'),
    )
    .addColumn('signee_id', 'text', (c) => c.notNull().references('signees.id').onDelete('cascade'))
    .addColumn('field_id', 'text')
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('field_attachments_document_idx')
    .on('field_attachments')
    .column('document_id')
    .execute();
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('field_attachments').execute();
}
