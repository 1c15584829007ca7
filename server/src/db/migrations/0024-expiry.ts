import type { Kysely } from 'kysely';

/**
 * Expiry (decisions §12): a document's deadline (`expires_at`, set at send from the request or
 * the tenant's `expiry_days`), and why a cancelled document was cancelled (`cancel_reason`:
 * `expired`, else null). The deadline is kept by a job due at that time (`document.expire`),
 * so nothing scans the documents to find the expired ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('expires_at', 'text').execute();
  await db.schema.alterTable('documents').addColumn('cancel_reason', 'text').execute();
  await db.schema.alterTable('tenants').addColumn('expiry_days', 'integer').execute();
}

/** Drops the columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tenants').dropColumn('expiry_days').execute();
  await db.schema.alterTable('documents').dropColumn('cancel_reason').execute();
  await db.schema.alterTable('documents').dropColumn('expires_at').execute();
}
