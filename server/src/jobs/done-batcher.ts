import type { Db } from '../db/handle.js';
import { deleteFinishedJobs } from './queue.js';

type Waiting = { id: string; resolve: () => void; reject: (err: unknown) => void };

/**
 * Deletes successful jobs in batches: under load many finish in the same instant, and one
 * DELETE (one durable commit) for all of them keeps the queue's bookkeeping from costing a disk
 * flush per job. When idle a batch is one job, written one event-loop turn later.
 */
export function createDoneBatcher(db: Db): (jobId: string) => Promise<void> {
  let queue: Waiting[] = [];
  let flushing = false;

  async function flush() {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await deleteFinishedJobs(db.kysely, { ids: batch.map((b) => b.id) });
        batch.forEach((b) => b.resolve());
      } catch (err) {
        batch.forEach((b) => b.reject(err));
      }
    }
    flushing = false;
  }

  return (jobId) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ id: jobId, resolve, reject });
      if (!flushing) {
        flushing = true;
        setImmediate(() => void flush());
      }
    });
}
