import type { Selectable } from 'kysely';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from '../../db/schema.js';
import type { DbOrTrx } from '../../jobs/queue.js';

/** A delivery row: one series of attempts of one event to one webhook. */
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
/** An attempt row. */
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** Inserts a delivery. */
export async function insertDelivery(db: DbOrTrx, row: DeliveryRow) {
  await db.insertInto('webhook_deliveries').values(row).execute();
}

/**
 * Everything the given deliveries' attempts need in one read: each delivery, its webhook
 * (current URL, state and secret), the event's exact payload, and the attempts started so far
 * (one row per attempt; a single row with null attempt columns when there is none).
 */
export function findAttemptContexts(db: DbOrTrx, deliveryIds: string[]) {
  return db
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
    .where('d.id', 'in', deliveryIds)
    .execute();
}

/**
 * Writes attempts' outcomes in one statement, each only once: an attempt whose outcome is
 * already recorded is left alone and not returned. Returns the keys this call recorded.
 */
export function recordAttemptResults(db: DbOrTrx, rows: AttemptRow[]) {
  return db
    .insertInto('webhook_attempts')
    .values(rows)
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
    .returning(['delivery_id', 'attempt'])
    .execute();
}

/**
 * Moves pending deliveries past their attempt `attempt`, whose outcome was just recorded: one
 * statement for a whole batch. The dispatch time (attempt 1's start) and the completion time
 * (the final attempt's end) are read from the attempt rows, so they need no per-row values.
 */
export async function advanceDeliveries(
  db: DbOrTrx,
  input: { ids: string[]; attempt: number; final: 'succeeded' | 'failed' | null },
) {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => {
      const attemptColumn = (n: number, column: 'a.started_at' | 'a.finished_at') =>
        eb
          .selectFrom('webhook_attempts as a')
          .select(column)
          .whereRef('a.delivery_id', '=', 'webhook_deliveries.id')
          .where('a.attempt', '=', n);
      return {
        attempt_count: input.attempt,
        ...(input.attempt === 1 ? { dispatched_at: attemptColumn(1, 'a.started_at') } : {}),
        ...(input.final
          ? { status: input.final, completed_at: attemptColumn(input.attempt, 'a.finished_at') }
          : {}),
      };
    })
    .where('id', 'in', input.ids)
    .where('status', '=', 'pending')
    .execute();
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
