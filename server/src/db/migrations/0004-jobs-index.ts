import type { Kysely } from 'kysely';

/**
 * Drops the (status, run_at) index of jobs: every claim names its kind and walks
 * (status, kind, run_at), so the older index was only kept up to date, on each enqueue, claim
 * and completion, and never read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_due_idx').execute();
}

/** Puts the index back. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['status', 'run_at']).execute();
}
