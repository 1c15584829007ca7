import { sql, type Kysely } from 'kysely';

/**
 * The integrator's side of a document (decisions §12): the listing filter `externalId=` finds a
 * tenant's document by its own id through an index, and `redirect_url` is where the signing page
 * sends a signee after they sign or decline.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('redirect_url', 'text').execute();
  // Only documents that have an externalId are in it (most have none); `external_id = x` implies
  // `is not null`, which both engines see, so the filter uses it. created_at and id give the
  // listing's order without a sort when one externalId names many documents.
  await db.schema
    .createIndex('documents_tenant_external_idx')
    .on('documents')
    .columns(['tenant_id', 'external_id', 'created_at', 'id'])
    .where(sql.ref('external_id'), 'is not', null)
    .execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('documents_tenant_external_idx').execute();
  await db.schema.alterTable('documents').dropColumn('redirect_url').execute();
}
