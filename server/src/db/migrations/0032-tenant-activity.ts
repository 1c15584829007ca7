import type { Kysely } from 'kysely';

/**
 * The tenant's activity log (decisions §16): one row per change to the tenant's members, roles,
 * invitations, webhooks, settings, templates, logo and identity keys, and per API key its
 * members make or revoke. Who acted is kept as it was then (`actor_user_id`, `actor_email`,
 * `actor_api_key_id` for a call made with an API key), without a foreign key: the log outlives
 * a member's leaving. `details` is JSON. The index serves the newest-first keyset listing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tenant_activity')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text', (c) => c.notNull())
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('actor_api_key_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tenant_activity_newest')
    .on('tenant_activity')
    .columns(['tenant_id', 'created_at desc', 'id desc'])
    .execute();
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tenant_activity').execute();
}
