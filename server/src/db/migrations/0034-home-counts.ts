import { sql, type Kysely } from 'kysely';

/**
 * What the dashboard's home counts (GET /api/documents/summary) read through indexes, never by
 * loading rows: `completed_at`, when a document became `signed` (set by the seal move,
 * documents/lifecycle.ts), for "completed in the last 7 days" and the listing's
 * `completedSince`; and the e-mails refused for good, per tenant and per signee, for "failed
 * e-mails" and the listing's `emailFailed`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('completed_at', 'text').execute();
  // Documents sealed before this migration: the time of their `sealed` audit entry, else their
  // last change (a signed document changes afterwards only by pinning or filing).
  await sql`update documents set completed_at = coalesce(
      (select max(a.created_at) from audit_entries a
        where a.document_id = documents.id and a.action = 'sealed'),
      updated_at)
    where status = 'signed'`.execute(db);
  await db.schema
    .createIndex('documents_tenant_completed_idx')
    .on('documents')
    .columns(['tenant_id', 'completed_at'])
    .where(sql.ref('completed_at'), 'is not', null)
    .execute();
  // Few e-mails are refused: the index holds only those, so a tenant's are found at once.
  await db.schema
    .createIndex('emails_tenant_refused_idx')
    .on('emails')
    .columns(['tenant_id', 'document_id'])
    .where(sql.ref('status'), '=', sql.lit('refused'))
    .execute();
  // A signee's later e-mails: was a refused invitation followed by one that went out?
  await db.schema
    .createIndex('emails_signee_idx')
    .on('emails')
    .columns(['signee_id', 'created_at'])
    .where(sql.ref('signee_id'), 'is not', null)
    .execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('emails_signee_idx').execute();
  await db.schema.dropIndex('emails_tenant_refused_idx').execute();
  await db.schema.dropIndex('documents_tenant_completed_idx').execute();
  await db.schema.alterTable('documents').dropColumn('completed_at').execute();
}
