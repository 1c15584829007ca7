import type { Db } from '../../db/handle.js';
import { validationError } from '../../lib/errors.js';
import { requireMembership } from '../tenants/tenants.service.js';
import type { EventEnvelope } from './events.service.js';

/**
 * A tenant's events in order (occurredAt, then id), after a given event. Receivers use it to
 * reconcile deliveries they missed; each item is the exact envelope that was delivered.
 */
export async function listTenantEvents(
  deps: { db: Db },
  input: { tenantId: string; userId: string; after?: string; limit: number },
): Promise<{ events: EventEnvelope[]; hasMore: boolean }> {
  const db = deps.db.kysely;
  await requireMembership(db, { ...input, action: 'tenant.read' });
  let query = db
    .selectFrom('events')
    .select('payload')
    .where('tenant_id', '=', input.tenantId)
    .orderBy('occurred_at')
    .orderBy('id')
    .limit(input.limit + 1);
  if (input.after) {
    const cursor = await db
      .selectFrom('events')
      .select(['occurred_at', 'id'])
      .where('tenant_id', '=', input.tenantId)
      .where('id', '=', input.after)
      .executeTakeFirst();
    if (!cursor) {
      throw validationError([{ path: 'query.after', message: 'is not an event of this tenant' }]);
    }
    query = query.where((eb) =>
      eb.or([
        eb('occurred_at', '>', cursor.occurred_at),
        eb.and([eb('occurred_at', '=', cursor.occurred_at), eb('id', '>', cursor.id)]),
      ]),
    );
  }
  const rows = await query.execute();
  return {
    events: rows.slice(0, input.limit).map((r) => JSON.parse(r.payload) as EventEnvelope),
    hasMore: rows.length > input.limit,
  };
}
