import type { DbOrTrx } from '../../db/handle.js';
import { newId, nowIso } from '../../lib/ids.js';
import { scheduleWebhookDeliveries } from '../webhooks/deliveries.service.js';
import type { OptInEventData, OptInEventType } from './event-types.js';
import { insertEvent, type EventRow } from './events.repo.js';
import { decodeMetadata } from '../documents/integrator-fields.js';

type Change = {
  documentId: string;
  oldStatus: string;
  newStatus: string;
  changedAt: string;
  /** The document's externalId and metadata at the change (decisions §12), else null. */
  externalId: string | null;
  metadata: Record<string, string> | null;
};
type Envelope<Type, Data> = {
  id: string;
  type: Type;
  occurredAt: string;
  tenantId: string;
  data: Data;
};

/** The webhook event envelope, exactly as the specification defines it. */
export type EventEnvelope =
  | Envelope<'document.status_changed', Change>
  | Envelope<'signee.status_changed', Change & { signeeId: string }>
  | { [T in OptInEventType]: Envelope<T, OptInEventData[T]> }[OptInEventType];

/**
 * Records a document or signee status change. Call it inside the transaction that makes the
 * change: the event exists exactly when the change does, and its payload bytes are fixed here.
 * It also writes the event's webhook deliveries; call `deps.jobs.wake()` after the commit.
 */
export async function recordStatusChange(
  trx: DbOrTrx,
  change: {
    tenantId: string;
    documentId: string;
    signeeId?: string;
    oldStatus: string;
    newStatus: string;
    changedAt?: string;
    /** The document's `external_id` and `metadata` columns as they stand; null when none. */
    externalId?: string | null;
    metadata?: string | null;
  },
): Promise<EventRow> {
  const changedAt = change.changedAt ?? nowIso();
  const type = change.signeeId ? 'signee.status_changed' : 'document.status_changed';
  // signeeId is there exactly when the type says signee.status_changed.
  const envelope = {
    id: newId(),
    type,
    occurredAt: changedAt,
    tenantId: change.tenantId,
    data: {
      documentId: change.documentId,
      ...(change.signeeId ? { signeeId: change.signeeId } : {}),
      oldStatus: change.oldStatus,
      newStatus: change.newStatus,
      changedAt,
      externalId: change.externalId ?? null,
      metadata: decodeMetadata(change.metadata ?? null),
    },
  } as EventEnvelope;
  const row: EventRow = {
    id: envelope.id,
    tenant_id: change.tenantId,
    type,
    document_id: change.documentId,
    signee_id: change.signeeId ?? null,
    old_status: change.oldStatus,
    new_status: change.newStatus,
    occurred_at: changedAt,
    payload: JSON.stringify(envelope),
  };
  await insertEvent(trx, row);
  // Same transaction: the deliveries exist exactly when the change does. Callers wake the job
  // runner after their commit so the first attempt starts at once.
  await scheduleWebhookDeliveries(trx, row);
  return row;
}
