import type { Kysely } from 'kysely';

/**
 * Templates, direct links and bulk send (decisions §11): a template is a tenant's reusable
 * draft (a stored PDF, roles instead of signees, fields placed for roles, settings); documents
 * made from it name it (`template_id`) and share its file. A bulk send is one intake row and a
 * row per recipient set, each created exactly once by its job. Also the document's
 * `external_id` and `metadata` (§12), which create-from-template and bulk rows take, and a
 * signee's own e-mail language.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('signing_message', 'text')
    .addColumn('email_language', 'text', (c) => c.notNull())
    .addColumn('signing_order_enabled', 'integer')
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('original_file', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('original_sha256', 'text', (c) => c.notNull())
    .addColumn('page_sizes', 'text', (c) => c.notNull())
    .addColumn('fields', 'text')
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('direct_link_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('direct_link_nonce', 'text')
    .addColumn('direct_link_token_hash', 'text', (c) => c.unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('templates_tenant_created_idx')
    .on('templates')
    .columns(['tenant_id', 'created_at', 'id'])
    .execute();

  await db.schema.alterTable('documents').addColumn('template_id', 'text').execute();
  await db.schema.alterTable('documents').addColumn('external_id', 'text').execute();
  await db.schema.alterTable('documents').addColumn('metadata', 'text').execute();
  await db.schema
    .createIndex('documents_template_idx')
    .on('documents')
    .columns(['template_id', 'created_at'])
    .execute();
  await db.schema.alterTable('signees').addColumn('language', 'text').execute();

  await db.schema
    .createTable('bulk_sends')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('template_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('sender_name', 'text', (c) => c.notNull())
    .addColumn('origin', 'text')
    .addColumn('template_snapshot', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_reserved', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('waiting_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('bulk_sends_template_idx')
    .on('bulk_sends')
    .columns(['tenant_id', 'template_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createTable('bulk_send_rows')
    .addColumn('bulk_send_id', 'text', (c) =>
      c.notNull().references('bulk_sends.id').onDelete('cascade'),
    )
    .addColumn('row_number', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('input', 'text')
    .addColumn('error', 'text')
    .addColumn('document_id', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_send_rows_pk', ['bulk_send_id', 'row_number'])
    .execute();
  await db.schema
    .createIndex('bulk_send_rows_status_idx')
    .on('bulk_send_rows')
    .columns(['bulk_send_id', 'status', 'row_number'])
    .execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bulk_send_rows').execute();
  await db.schema.dropTable('bulk_sends').execute();
  await db.schema.alterTable('signees').dropColumn('language').execute();
  await db.schema.dropIndex('documents_template_idx').execute();
  await db.schema.alterTable('documents').dropColumn('metadata').execute();
  await db.schema.alterTable('documents').dropColumn('external_id').execute();
  await db.schema.alterTable('documents').dropColumn('template_id').execute();
  await db.schema.dropTable('templates').execute();
}
