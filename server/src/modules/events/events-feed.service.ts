import type { Db } from '../../db/handle.js';
import { validationError } from '../../lib/errors.js';
import { requireMembership } from '../tenants/tenants.service.js';
import * as repo from './events.repo.js';
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
  const after = input.after
    ? await repo.findEventPosition(db, { tenantId: input.tenantId, eventId: input.after })
    : undefined;
  if (input.after && !after) {
    throw validationError([{ path: 'query.after', message: 'is not an event of this tenant' }]);
  }
  const rows = await repo.listEventPayloads(db, {
    tenantId: input.tenantId,
    after,
    limit: input.limit + 1,
  });
  return {
    events: rows.slice(0, input.limit).map((r) => JSON.parse(r.payload) as EventEnvelope),
    hasMore: rows.length > input.limit,
  };
}
