import { sql, type Kysely } from 'kysely';

/**
 * Deletes the jobs marked done: from this version a job that did its work is deleted with its
 * outcome (jobs/queue.ts deleteFinishedJobs) instead of staying as a `done` row, so the table
 * holds only what is left to do and the jobs that failed for good. The rows said nothing that
 * their outcome does not: the e-mail's row, the webhook attempt's, the audit trail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from jobs where status = 'done'`.execute(db);
}

/** Nothing to put back: an older version reads no done row, and writes its own from then on. */
export async function down(): Promise<void> {}
