import { z } from 'zod';

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
  ])
  .meta({ id: 'Event' });

export const eventsQuery = z.object({
  tenantId: z.uuid(),
  after: z.uuid().optional().describe('Return the events that follow this event id'),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});
