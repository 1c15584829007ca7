import type { Kysely } from 'kysely';

/**
 * After signing (decisions §10): a file attached to an outbox e-mail (the signed copy, read
 * from storage when the e-mail is delivered), when each signee first opened their link, and
 * the links to signed copies too large to attach.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // JSON {key, filename, contentType, size}: a stored file, streamed into the message.
  await db.schema.alterTable('emails').addColumn('attachment', 'text').execute();
  await db.schema.alterTable('signees').addColumn('opened_at', 'text').execute();
  await db.schema
    .createTable('copy_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) =>
      c.notNull().references('documents.id').onDelete('cascade'),
    )
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('copy_links_document_idx')
    .on('copy_links')
    .column('document_id')
    .execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('copy_links').execute();
  await db.schema.alterTable('signees').dropColumn('opened_at').execute();
  await db.schema.alterTable('emails').dropColumn('attachment').execute();
}
