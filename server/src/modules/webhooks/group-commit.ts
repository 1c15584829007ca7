import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/** Runs small independent write units, several per database transaction under load. */
export type GroupCommit = {
  run: <T>(unit: (trx: Transaction<Database>) => Promise<T>) => Promise<T>;
};

type Pending = {
  unit: (trx: Transaction<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/**
 * Group commit: every attempt writes twice (start, outcome), and with a durable commit per write
 * the disk, not the receivers, would bound throughput. Units submitted while a transaction is
 * being written share the next one. An idle service commits each unit at once (one event-loop
 * turn later), so latency is unchanged; a busy one commits many units per flush. Units must be
 * independent of each other: a failing batch is retried unit by unit, so one bad unit cannot
 * fail the others.
 */
export function createGroupCommit(db: Db): GroupCommit {
  let queue: Pending[] = [];
  let flushing = false;

  async function runAlone(item: Pending) {
    try {
      item.resolve(await db.kysely.transaction().execute(item.unit));
    } catch (err) {
      item.reject(err);
    }
  }

  async function flush() {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      if (batch.length === 1) {
        await runAlone(batch[0]);
        continue;
      }
      let results: unknown[] | null = null;
      try {
        results = await db.kysely.transaction().execute(async (trx) => {
          const out: unknown[] = [];
          for (const item of batch) out.push(await item.unit(trx));
          return out;
        });
      } catch {
        for (const item of batch) await runAlone(item);
      }
      if (results) batch.forEach((item, i) => item.resolve(results[i]));
    }
    flushing = false;
  }

  return {
    run<T>(unit: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ unit, resolve: resolve as (value: unknown) => void, reject });
        if (!flushing) {
          flushing = true;
          // One turn of the event loop collects the units that became ready together.
          setImmediate(() => void flush());
        }
      });
    },
  };
}
