import type { Kysely } from 'kysely';

/** How each signed document's sealed file was made (`normalised`, `incremental`, `attached`). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('seal_mode', 'text').execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').dropColumn('seal_mode').execute();
}
