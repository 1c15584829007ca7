import type { DbOrTrx } from '../../db/handle.js';
import { newId, nowIso } from '../../lib/ids.js';
import { scheduleWebhookDeliveries } from '../webhooks/deliveries.service.js';
import type { EmailsTable } from '../../db/schema.js';
import {
  parseWebhookEvents,
  type EmailFailedKind,
  type OptInEventData,
  type OptInEventType,
} from './event-types.js';
import { insertEvent, type EventRow } from './events.repo.js';

/**
 * Records an opt-in event and its webhook deliveries in the caller's transaction, if the
 * tenant's `webhookEvents` names its type at this moment; otherwise nothing is written, so
 * neither a webhook, a redelivery nor the events feed can ever show it. Returns the event row
 * or null. Callers wake the job runner after their commit (a finishing job wakes it anyway).
 */
export async function recordOptInEvent<T extends OptInEventType>(
  trx: DbOrTrx,
  event: {
    tenantId: string;
    type: T;
    data: OptInEventData[T];
    at?: string;
  },
): Promise<EventRow | null> {
  const tenant = await trx
    .selectFrom('tenants')
    .select('webhook_events')
    .where('id', '=', event.tenantId)
    .executeTakeFirst();
  if (!tenant || !parseWebhookEvents(tenant.webhook_events).includes(event.type)) return null;
  const at = event.at ?? nowIso();
  const envelope = {
    id: newId(),
    type: event.type,
    occurredAt: at,
    tenantId: event.tenantId,
    data: event.data,
  };
  const data = event.data as { documentId?: string; signeeId?: string | null };
  const row: EventRow = {
    id: envelope.id,
    tenant_id: event.tenantId,
    type: event.type,
    // No status moves: see EventsTable for the empty strings.
    document_id: data.documentId ?? '',
    signee_id: data.signeeId ?? null,
    old_status: '',
    new_status: '',
    occurred_at: at,
    payload: JSON.stringify(envelope),
  };
  await insertEvent(trx, row);
  await scheduleWebhookDeliveries(trx, row);
  return row;
}

/**
 * `signee.reminded` for one reminder, in the transaction that records it: manual reminders
 * (remindSignees) and automatic ones call it alike.
 */
export function recordSigneeReminded(
  trx: DbOrTrx,
  reminder: { tenantId: string; documentId: string; signeeId: string; at: string },
): Promise<EventRow | null> {
  return recordOptInEvent(trx, {
    tenantId: reminder.tenantId,
    type: 'signee.reminded',
    data: { documentId: reminder.documentId, signeeId: reminder.signeeId, remindedAt: reminder.at },
    at: reminder.at,
  });
}

/**
 * `email.failed` for an outbox row refused for good, in the transaction that settles it (the
 * outbox's `refused`): the settlement happens once per row, so the event does too. E-mails of
 * no tenant (account mail) raise none.
 */
export async function recordEmailFailed(
  trx: DbOrTrx,
  email: Pick<EmailsTable, 'tenant_id' | 'to_address' | 'document_id' | 'signee_id' | 'kind'>,
  failure: { error: string; at: string },
): Promise<EventRow | null> {
  if (!email.tenant_id) return null;
  return recordOptInEvent(trx, {
    tenantId: email.tenant_id,
    type: 'email.failed',
    data: {
      documentId: email.document_id,
      signeeId: email.signee_id,
      email: email.to_address,
      // Rows without a kind are the sender's own notices (the mail audit records signees' only).
      kind: (email.kind ?? 'notice') as EmailFailedKind,
      error: failure.error,
      failedAt: failure.at,
    },
    at: failure.at,
  });
}
