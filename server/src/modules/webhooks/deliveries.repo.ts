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
 * Everything an attempt needs in one read: the delivery, its webhook (current URL, state and
 * secret), the event's exact payload, and this attempt's row if an earlier run started it.
 */
export function findAttemptContext(db: DbOrTrx, deliveryId: string, attempt: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .leftJoin('webhook_attempts as a', (join) =>
      join.onRef('a.delivery_id', '=', 'd.id').on('a.attempt', '=', attempt),
    )
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
      'a.started_at as attempt_started_at',
      'a.finished_at as attempt_finished_at',
    ])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

/**
 * Records that an attempt is starting. The primary key (delivery, attempt) lets exactly one
 * caller win; returns false when the attempt had already been started.
 */
export async function insertAttemptStart(
  db: DbOrTrx,
  row: Pick<AttemptRow, 'delivery_id' | 'attempt' | 'scheduled_at' | 'started_at'>,
): Promise<boolean> {
  const result = await db
    .insertInto('webhook_attempts')
    .values({ ...row, finished_at: null, status_code: null, duration_ms: null, error: null })
    .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Writes an attempt's outcome once; returns false when it was already recorded. */
export async function recordAttemptResult(
  db: DbOrTrx,
  result: Pick<
    AttemptRow,
    'delivery_id' | 'attempt' | 'finished_at' | 'status_code' | 'duration_ms' | 'error'
  >,
): Promise<boolean> {
  const { delivery_id, attempt, ...outcome } = result;
  const updated = await db
    .updateTable('webhook_attempts')
    .set(outcome)
    .where('delivery_id', '=', delivery_id)
    .where('attempt', '=', attempt)
    .where('finished_at', 'is', null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
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
