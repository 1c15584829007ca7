import type { Kysely } from 'kysely';

/** Documents, signees, status-change events, the audit trail and idempotency records. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('folder_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('pinned', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('signing_method', 'text', (c) => c.notNull())
    .addColumn('signing_message', 'text')
    .addColumn('signing_order_enabled', 'integer')
    .addColumn('signing_groups_enabled', 'integer', (c) => c.notNull())
    .addColumn('reminder_cooldown_until', 'text')
    .addColumn('email_language', 'text', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('original_file', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('original_sha256', 'text', (c) => c.notNull())
    .addColumn('hash', 'text')
    .addColumn('sealed_file', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Keyset pagination, newest first, with and without a status filter.
  await db.schema
    .createIndex('documents_tenant_created_idx')
    .on('documents')
    .columns(['tenant_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('documents_tenant_status_created_idx')
    .on('documents')
    .columns(['tenant_id', 'status', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('signees')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) =>
      c.notNull().references('documents.id').onDelete('cascade'),
    )
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('signing_order', 'integer')
    .addColumn('signing_group_id', 'text')
    .addColumn('signed_at', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('invited_at', 'text')
    .addColumn('declined_at', 'text')
    .addColumn('decline_reason', 'text')
    .addColumn('signature_file', 'text')
    .addColumn('signature_typed', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('signees_document_idx')
    .on('signees')
    .columns(['document_id', 'position'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('signee_id', 'text')
    .addColumn('old_status', 'text', (c) => c.notNull())
    .addColumn('new_status', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('events_tenant_idx')
    .on('events')
    .columns(['tenant_id', 'occurred_at', 'id'])
    .execute();

  await db.schema
    .createTable('audit_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('signee_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('details', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audit_entries_document_idx')
    .on('audit_entries')
    .columns(['document_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
    .execute();
}

/** Drops everything up() made. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['idempotency_keys', 'audit_entries', 'events', 'signees', 'documents']) {
    await db.schema.dropTable(t).execute();
  }
}
