import type { DbOrTrx } from '../db/handle.js';
import { preparedQuery } from '../db/prepared.js';
import { newId, nowIso } from '../lib/ids.js';
import { deferWrite } from '../db/deferred-writes.js';

/** A job to add: what it does, its input, and when. */
export type NewJob = {
  kind: string;
  payload: unknown;
  runAt?: string;
  maxAttempts?: number;
  id?: string;
};

/** Adds a durable job; it runs only if the surrounding transaction commits. */
export async function enqueueJob(trx: DbOrTrx, job: NewJob): Promise<string> {
  const [id] = await enqueueJobs(trx, [job]);
  return id;
}

/**
 * Adds durable jobs in one statement (a round trip each was most of what fanning an event out to
 * its webhooks cost on PostgreSQL); they run only if the surrounding transaction commits.
 */
export async function enqueueJobs(trx: DbOrTrx, jobs: NewJob[]): Promise<string[]> {
  if (jobs.length === 0) return [];
  const now = nowIso();
  const rows = jobs.map((job) => ({
    id: job.id ?? newId(),
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    run_at: job.runAt ?? now,
    status: 'pending' as const,
    attempts: 0,
    max_attempts: job.maxAttempts ?? 10,
    lease_until: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  }));
  await deferWrite(trx, trx.insertInto('jobs').values(rows));
  return rows.map((row) => row.id);
}

/** Moves a pending job to `runAt`; a job being run or finished is left to its runner. */
export async function rescheduleJob(db: DbOrTrx, jobId: string, runAt: string) {
  await db
    .updateTable('jobs')
    .set({ run_at: runAt, updated_at: nowIso() })
    .where('id', '=', jobId)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * Deletes jobs that are still waiting for their turn, once their work was done elsewhere (the
 * e-mails a request delivered itself); a running job is its runner's to finish.
 */
export async function deletePendingJobs(db: DbOrTrx, jobIds: string[]) {
  if (jobIds.length === 0) return;
  await db.deleteFrom('jobs').where('id', 'in', jobIds).where('status', '=', 'pending').execute();
}

/**
 * Deletes finished jobs in one statement (the runner's completions, a handler's own batch): a
 * job that did its work leaves no row, so the queue holds only what is left to do (and the jobs
 * that failed for good, kept for inspection) however long the service runs. What a job did is
 * recorded where it belongs: the e-mail's row, the webhook attempt's, the document's audit trail.
 * Prepared: compiled once per number of jobs.
 */
export const deleteFinishedJobs = preparedQuery((q, p: { ids: string[] }) =>
  q.deleteFrom('jobs').where('id', 'in', p.ids),
);
