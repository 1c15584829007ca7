import type { Db } from '../db/handle.js';
import { nowIso } from '../lib/ids.js';
import { markJobsDone } from './queue.js';

type Waiting = { id: string; resolve: () => void; reject: (err: unknown) => void };

/**
 * Marks successful jobs done in batches: under load many finish in the same instant, and one
 * UPDATE (one durable commit) for all of them keeps the queue's bookkeeping from costing a disk
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
        await markJobsDone(db.kysely, { ids: batch.map((b) => b.id), now: nowIso() });
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
