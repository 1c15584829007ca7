import { sql, type Kysely } from 'kysely';

/**
 * Opt-in events (decisions §12): the tenant's `webhookEvents`, a JSON array of event types,
 * `[]` by default, so nobody starts receiving a type they did not ask for. What `email.failed`
 * tells of an e-mail (its document, signee and kind) is the outbox row's own (0025).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tenants')
    .addColumn('webhook_events', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
    .execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tenants').dropColumn('webhook_events').execute();
}
