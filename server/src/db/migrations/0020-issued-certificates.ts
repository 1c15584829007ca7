import type { Kysely } from 'kysely';

/**
 * The audit certificates made by GET /api/documents/{id}/certificate, by their SHA-256: each is
 * made anew and sealed, and POST /api/verify and `signet verify` answer `sealed` only for a file
 * this service knows (a sealed document's, or one of these).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('issued_certificates')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) =>
      c.notNull().references('documents.id').onDelete('cascade'),
    )
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('issued_certificates_document_idx')
    .on('issued_certificates')
    .column('document_id')
    .execute();
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('issued_certificates').execute();
}
