import { z } from 'zod';
import { EMAIL_FAILED_KINDS } from './event-types.js';

const eventId = z.uuid().describe('Event id; equals X-Service-Webhook-Id of its deliveries');
const change = {
  oldStatus: z.string(),
  newStatus: z.string(),
  changedAt: z.string(),
  externalId: z.string().nullable().describe("the document's externalId at the change"),
  metadata: z
    .record(z.string(), z.string())
    .nullable()
    .describe("the document's metadata at the change"),
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
        documentId: z
          .uuid()
          .nullable()
          .describe('null for an e-mail not to a signee (kind notice)'),
        signeeId: z.uuid().nullable().describe('null for an e-mail not to a signee (kind notice)'),
        email: z.string().describe("the outbox row's address"),
        kind: z
          .enum(EMAIL_FAILED_KINDS)
          .describe(
            "the e-mail's kind (the mail audit's); notice: the sender's, a team invitation",
          ),
        error: z
          .string()
          .describe("the SMTP server's permanent (5xx) answer, or the last attempt's error"),
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
