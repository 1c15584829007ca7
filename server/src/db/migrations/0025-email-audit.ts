import type { Kysely } from 'kysely';

/**
 * What an outbox row to a signee records in its document's audit trail: the document, the
 * signee and the kind of e-mail (invitation, reminder, notice, copy). Written with the row's
 * outcome, in the transaction that stores it, so the entry is neither lost nor doubled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('emails').addColumn('document_id', 'text').execute();
  await db.schema.alterTable('emails').addColumn('signee_id', 'text').execute();
  await db.schema.alterTable('emails').addColumn('kind', 'text').execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('emails').dropColumn('kind').execute();
  await db.schema.alterTable('emails').dropColumn('signee_id').execute();
  await db.schema.alterTable('emails').dropColumn('document_id').execute();
}
