import { sql, type Kysely } from 'kysely';

/**
 * Opt-in events (decisions §12): the tenant's `webhookEvents` (a JSON array of event types,
 * `[]` by default, so nobody starts receiving a type they did not ask for), and on an outbox
 * row what `email.failed` says about it besides its address (JSON `{kind, documentId,
 * signeeId}`; null for e-mails that raise no event, such as account mail).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tenants')
    .addColumn('webhook_events', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
    .execute();
  await db.schema.alterTable('emails').addColumn('refusal_event', 'text').execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('emails').dropColumn('refusal_event').execute();
  await db.schema.alterTable('tenants').dropColumn('webhook_events').execute();
}
