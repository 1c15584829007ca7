import { sql, type Kysely } from 'kysely';

/**
 * Embedding (decisions §13): the tenant's `embedOrigins`, a JSON array of the origins allowed to
 * frame its documents' signing pages, `[]` by default, so no page of an existing tenant becomes
 * frameable by an upgrade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tenants')
    .addColumn('embed_origins', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
    .execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tenants').dropColumn('embed_origins').execute();
}
