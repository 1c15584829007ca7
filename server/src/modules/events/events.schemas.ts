import { z } from 'zod';

/** The webhook event envelope of the specification, as the events feed returns it. */
export const eventEnvelopeSchema = z.object({
  id: z.uuid().describe('Event id; equals X-Service-Webhook-Id of its deliveries'),
  type: z.enum(['document.status_changed', 'signee.status_changed']),
  occurredAt: z.string(),
  tenantId: z.uuid(),
  data: z.object({
    documentId: z.uuid(),
    signeeId: z.uuid().optional().describe('Present only for signee.status_changed'),
    oldStatus: z.string(),
    newStatus: z.string(),
    changedAt: z.string(),
  }),
});

export const eventsQuery = z.object({
  tenantId: z.uuid(),
  after: z.uuid().optional().describe('Return the events that follow this event id'),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});
