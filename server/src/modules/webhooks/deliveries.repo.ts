import type { Selectable } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from '../../db/schema.js';
import type { DbOrTrx } from '../../db/handle.js';
import { deferWrite } from '../../db/deferred-writes.js';

/** A delivery row: one series of attempts of one event to one webhook. */
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
/** An attempt row. */
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** Inserts deliveries, in one statement. */
export async function insertDeliveries(db: DbOrTrx, rows: DeliveryRow[]) {
  await deferWrite(db, db.insertInto('webhook_deliveries').values(rows));
}

// The attempt handler's statements take a batch of up to 64 attempts (128 on PostgreSQL, see
// webhook-attempt-job.ts): they are prepared queries (compiled once per batch size), since
// building and compiling them cost as much as running them.

/**
 * Everything the given deliveries' attempts need in one read: each delivery, its webhook
 * (current URL, state and secret), the event's exact payload, and the attempts recorded so far
 * (one row per attempt; a single row with null attempt columns when there is none).
 */
export const findAttemptContexts = preparedQuery((q, p: { ids: string[] }) =>
  q
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .leftJoin('webhook_attempts as a', 'a.delivery_id', 'd.id')
    .select([
      'd.id',
      'd.status',
      'd.dispatched_at',
      'd.webhook_id',
      'w.url',
      'w.active',
      'w.secret_encrypted',
      'e.id as event_id',
      'e.type as event_type',
      'e.payload',
      'a.attempt',
      'a.started_at as attempt_started_at',
      'a.finished_at as attempt_finished_at',
    ])
    .where('d.id', 'in', p.ids),
);

/**
 * Writes attempts' outcomes in one statement, each only once: an attempt whose outcome is
 * already recorded is left alone and not returned. Returns the keys this call recorded.
 */
export const recordAttemptResults = preparedQuery((q, p: { rows: AttemptRow[] }) =>
  q
    .insertInto('webhook_attempts')
    .values(
      p.rows.map((r) => ({
        delivery_id: r.delivery_id,
        attempt: r.attempt,
        scheduled_at: r.scheduled_at,
        started_at: r.started_at,
        finished_at: r.finished_at,
        status_code: r.status_code,
        duration_ms: r.duration_ms,
        error: r.error,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['delivery_id', 'attempt'])
        .doUpdateSet((eb) => ({
          finished_at: eb.ref('excluded.finished_at'),
          status_code: eb.ref('excluded.status_code'),
          duration_ms: eb.ref('excluded.duration_ms'),
          error: eb.ref('excluded.error'),
        }))
        .where('webhook_attempts.finished_at', 'is', null),
    )
    .returning(['delivery_id', 'attempt']),
);

// advanceDeliveries' statement for each combination of "first attempt" and "series ends".
const advance = (first: boolean, ends: boolean) =>
  preparedQuery((q, p: { ids: string[]; attempt: number; final: 'succeeded' | 'failed' | null }) =>
    q
      .updateTable('webhook_deliveries')
      .set((eb) => {
        const attemptColumn = (column: 'a.started_at' | 'a.finished_at') =>
          eb
            .selectFrom('webhook_attempts as a')
            .select(column)
            .whereRef('a.delivery_id', '=', 'webhook_deliveries.id')
            .where('a.attempt', '=', p.attempt);
        return {
          attempt_count: p.attempt,
          ...(first ? { dispatched_at: attemptColumn('a.started_at') } : {}),
          ...(ends ? { status: p.final!, completed_at: attemptColumn('a.finished_at') } : {}),
        };
      })
      .where('id', 'in', p.ids)
      .where('status', '=', 'pending'),
  );
const advances = [
  advance(false, false),
  advance(false, true),
  advance(true, false),
  advance(true, true),
];

/**
 * Moves pending deliveries past their attempt `attempt`, whose outcome was just recorded: one
 * statement for a whole batch. The dispatch time (attempt 1's start) and the completion time
 * (the final attempt's end) are read from the attempt rows, so they need no per-row values.
 */
export async function advanceDeliveries(
  db: DbOrTrx,
  input: { ids: string[]; attempt: number; final: 'succeeded' | 'failed' | null },
) {
  const statement = advances[(input.attempt === 1 ? 2 : 0) + (input.final ? 1 : 0)]!;
  await statement(db, input);
}

/** Updates a delivery that is still pending (a finished one never changes again). */
export async function updatePendingDelivery(
  db: DbOrTrx,
  deliveryId: string,
  patch: Partial<Pick<DeliveryRow, 'status' | 'attempt_count' | 'completed_at' | 'dispatched_at'>>,
) {
  await db
    .updateTable('webhook_deliveries')
    .set(patch)
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .execute();
}

/** A page of a webhook's deliveries, newest first, after the keyset cursor if given. */
export function listDeliveries(
  db: DbOrTrx,
  input: { webhookId: string; limit: number; before?: { createdAt: string; id: string } },
) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .selectAll('d')
    .select('e.type as event_type')
    .where('d.webhook_id', '=', input.webhookId);
  const before = input.before;
  if (before) {
    query = query.where((eb) =>
      eb.or([
        eb('d.created_at', '<', before.createdAt),
        eb.and([eb('d.created_at', '=', before.createdAt), eb('d.id', '<', before.id)]),
      ]),
    );
  }
  return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(input.limit).execute();
}

/** The attempts of the given deliveries, in attempt order. */
export function listAttempts(db: DbOrTrx, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
}

/** One event of a tenant, or undefined. */
export function findTenantEvent(db: DbOrTrx, tenantId: string, eventId: string) {
  return db
    .selectFrom('events')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', eventId)
    .executeTakeFirst();
}
