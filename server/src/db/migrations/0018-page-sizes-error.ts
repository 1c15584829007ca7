import type { Kysely } from 'kysely';

/**
 * Why a document's pages could not be read, kept like the sizes themselves: a file that fails
 * once fails every time, so the failure is stored rather than the file parsed again at every
 * view of its signing page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('page_sizes_error', 'text').execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').dropColumn('page_sizes_error').execute();
}
