import { z } from 'zod';

const eventId = z.uuid().describe('Event id; equals X-Service-Webhook-Id of its deliveries');
const change = {
  oldStatus: z.string(),
  newStatus: z.string(),
  changedAt: z.string(),
};

// The envelope of an opt-in event: the seed's fields around a data object of its own.
function envelope<T extends string, D extends z.ZodType>(type: T, data: D, id: string) {
  return z
    .object({
      id: eventId,
      type: z.literal(type),
      occurredAt: z.string(),
      tenantId: z.uuid(),
      data,
    })
    .meta({ id });
}

/** The webhook event envelope of the specification, as the events feed returns it. */
export const eventEnvelopeSchema = z
  .discriminatedUnion('type', [
    z.object({
      id: eventId,
      type: z.literal('document.status_changed'),
      occurredAt: z.string(),
      tenantId: z.uuid(),
      data: z.object({ documentId: z.uuid(), ...change }),
    }),
    z.object({
      id: eventId,
      type: z.literal('signee.status_changed'),
      occurredAt: z.string(),
      tenantId: z.uuid(),
      data: z.object({ documentId: z.uuid(), signeeId: z.uuid(), ...change }),
    }),
    // Opt-in events (decisions §12): only for tenants whose webhookEvents names them.
    envelope(
      'signee.viewed',
      z.object({ documentId: z.uuid(), signeeId: z.uuid(), viewedAt: z.string() }),
      'SigneeViewedEvent',
    ),
    envelope(
      'signee.reminded',
      z.object({ documentId: z.uuid(), signeeId: z.uuid(), remindedAt: z.string() }),
      'SigneeRemindedEvent',
    ),
    envelope(
      'email.failed',
      z.object({
        documentId: z.uuid(),
        signeeId: z.uuid().nullable().describe('null when the recipient is the sender'),
        email: z.string(),
        kind: z.enum(['invitation', 'reminder', 'notice']),
        error: z.string().describe("the SMTP server's permanent (5xx) answer"),
        failedAt: z.string(),
      }),
      'EmailFailedEvent',
    ),
    envelope(
      'bulk_send.completed',
      z.object({
        id: z.uuid(),
        templateId: z.uuid(),
        total: z.number().int(),
        created: z.number().int(),
        failed: z.number().int(),
      }),
      'BulkSendCompletedEvent',
    ),
  ])
  .meta({ id: 'Event' });

export const eventsQuery = z.object({
  tenantId: z.uuid(),
  after: z.uuid().optional().describe('Return the events that follow this event id'),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});
