import type { Kysely } from 'kysely';
import { withUnflushedCommits } from '../../db/database.js';
import type { Db } from '../../db/handle.js';
import type { Database } from '../../db/schema.js';
import { deleteFinishedJobs } from '../../jobs/queue.js';
import { createBatcher } from './batcher.js';
import * as repo from './deliveries.repo.js';
import { enqueueAttempts } from './deliveries.service.js';

/** What one attempt needs to know: its delivery, webhook, event, and its own row if any. */
export type AttemptContext = {
  id: string;
  status: repo.DeliveryRow['status'];
  dispatched_at: string | null;
  webhook_id: string;
  url: string;
  active: number;
  secret_encrypted: string;
  event_id: string;
  event_type: string;
  payload: string;
  attempt_started_at: string | null;
  attempt_finished_at: string | null;
};

/** An attempt's outcome and what follows it. */
export type Conclusion = {
  /** The job making the attempt: deleted in the same transaction. */
  jobId: string;
  row: repo.AttemptRow;
  /** The series ends here (2xx, or the last attempt failed)... */
  final: 'succeeded' | 'failed' | null;
  /** ...or the next attempt is due then. */
  nextDueAt: string | null;
};

type Key = { deliveryId: string; attempt: number };

const keyOf = (deliveryId: string, attempt: number) => `${deliveryId}#${attempt}`;

/**
 * The attempt handler's reads and writes, batched across the attempts in flight: the runner
 * runs up to 64 at once (128 on PostgreSQL), and one statement per batch instead of one per
 * attempt is what keeps the database from costing more than the HTTP requests. Writes stay per
 * attempt in effect: each outcome is recorded exactly once (an attempt's start is its job's
 * claim).
 */
export function createAttemptStore(db: Db) {
  const load = createBatcher<Key, AttemptContext | undefined>(async (keys) => {
    const rows = await repo.findAttemptContexts(db.kysely, {
      ids: [...new Set(keys.map((k) => k.deliveryId))],
    });
    const byDelivery = new Map<string, typeof rows>();
    for (const r of rows) {
      const list = byDelivery.get(r.id);
      if (list) list.push(r);
      else byDelivery.set(r.id, [r]);
    }
    return keys.map(({ deliveryId, attempt }) => {
      const ofDelivery = byDelivery.get(deliveryId);
      if (!ofDelivery) return undefined;
      const own = ofDelivery.find((r) => r.attempt === attempt);
      return {
        ...ofDelivery[0],
        attempt_started_at: own?.attempt_started_at ?? null,
        attempt_finished_at: own?.attempt_finished_at ?? null,
      };
    });
  });

  // True when this call recorded the outcome; the delivery's new state and the next attempt's
  // job commit in the same transaction, so the next attempt exists exactly when this outcome does.
  const conclude = createBatcher<Conclusion, boolean>((items) =>
    commitOutcomes(db, items, async (trx) => {
      const unique = dedupe(items.map((i) => i.row));
      const recorded = await repo.recordAttemptResults(trx, { rows: [...unique.values()] });
      const ours = new Set(recorded.map((r) => keyOf(r.delivery_id, r.attempt)));
      const done = items.map((item) => {
        const k = keyOf(item.row.delivery_id, item.row.attempt);
        return unique.get(k) === item.row && ours.has(k);
      });
      const mine = items.filter((_, i) => done[i]);
      // Deliveries in the same situation (same attempt, same outcome) move in one statement.
      const groups = new Map<
        string,
        { attempt: number; final: Conclusion['final']; ids: string[] }
      >();
      for (const item of mine) {
        const g = `${item.row.attempt}:${item.final}`;
        const group = groups.get(g) ?? { attempt: item.row.attempt, final: item.final, ids: [] };
        group.ids.push(item.row.delivery_id);
        groups.set(g, group);
      }
      for (const group of groups.values()) await repo.advanceDeliveries(trx, group);
      await enqueueAttempts(
        trx,
        mine.flatMap((item) =>
          item.nextDueAt
            ? [
                {
                  deliveryId: item.row.delivery_id,
                  attempt: item.row.attempt + 1,
                  dueAt: item.nextDueAt,
                },
              ]
            : [],
        ),
      );
      // Every job of the batch has nothing left to do, whether or not it recorded the outcome.
      await deleteFinishedJobs(trx, { ids: items.map((i) => i.jobId) });
      return done;
    }),
  );

  return { load, conclude };
}

/**
 * Commits a batch of outcomes. When none enqueues a next attempt, the commit does not wait for
 * its flush (withUnflushedCommits): losing it to a power failure in the moment before the
 * background flush only makes the attempt's job run again, which records the attempt as
 * interrupted, as when the process died mid-request. An outcome that schedules the next attempt
 * is flushed before its job can be claimed, so a power failure cannot undo an attempt that was
 * already sent.
 */
function commitOutcomes<T>(
  db: Db,
  items: Conclusion[],
  fn: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (items.some((i) => i.nextDueAt)) return db.kysely.transaction().execute(fn);
  return withUnflushedCommits(db, (q) => q.transaction().execute(fn));
}

// One row per (delivery, attempt) per statement: PostgreSQL refuses an upsert that touches a
// row twice, and two runs of one attempt in one batch must not both win.
function dedupe<R extends { delivery_id: string; attempt: number }>(rows: R[]): Map<string, R> {
  const unique = new Map<string, R>();
  for (const r of rows) {
    const k = keyOf(r.delivery_id, r.attempt);
    if (!unique.has(k)) unique.set(k, r);
  }
  return unique;
}
