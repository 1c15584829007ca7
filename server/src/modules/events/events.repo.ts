import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../db/handle.js';
import type { EventsTable } from '../../db/schema.js';
import { deferWrite } from '../../db/deferred-writes.js';

/** A recorded status-change event row. */
export type EventRow = Selectable<EventsTable>;

/** Adds an event row (in a transaction, with its next statement: db/deferred-writes.ts). */
export async function insertEvent(db: DbOrTrx, row: EventRow) {
  await deferWrite(db, db.insertInto('events').values(row));
}

/** Where an event of the tenant sits in its order, or undefined for another tenant's id. */
export function findEventPosition(db: DbOrTrx, input: { tenantId: string; eventId: string }) {
  return db
    .selectFrom('events')
    .select(['occurred_at', 'id'])
    .where('tenant_id', '=', input.tenantId)
    .where('id', '=', input.eventId)
    .executeTakeFirst();
}

/** Payloads of a tenant's events in order (occurredAt, then id), after a position. */
export function listEventPayloads(
  db: DbOrTrx,
  input: { tenantId: string; after?: { occurred_at: string; id: string }; limit: number },
) {
  let query = db
    .selectFrom('events')
    .select('payload')
    .where('tenant_id', '=', input.tenantId)
    .orderBy('occurred_at')
    .orderBy('id')
    .limit(input.limit);
  const after = input.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('occurred_at', '>', after.occurred_at),
        eb.and([eb('occurred_at', '=', after.occurred_at), eb('id', '>', after.id)]),
      ]),
    );
  }
  return query.execute();
}
