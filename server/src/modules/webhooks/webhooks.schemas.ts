import { z } from 'zod';

/** A webhook configuration as returned by the API; the secret is never part of it. */
export const webhookSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    active: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'Webhook' });

/** Create and rotate answers: the only places the signing secret appears. */
export const webhookWithSecretSchema = z.object({
  webhook: webhookSchema,
  secret: z.string().describe('Signing secret (whsec_…); shown only in this response.'),
});

export const tenantWebhooksParams = z.object({ tenantId: z.uuid() });
export const webhookParams = z.object({ tenantId: z.uuid(), webhookId: z.uuid() });
export const redeliverParams = z.object({
  tenantId: z.uuid(),
  webhookId: z.uuid(),
  eventId: z.uuid(),
});

// The URL's syntax, scheme and address rules are checked by the service (they depend on
// WEBHOOK_ALLOW_PRIVATE_URLS and on DNS); here it only has to be a string of sane length.
const urlField = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .describe('Direct https: URL accepting POST; public addresses only');

export const createWebhookBody = z
  .object({ url: urlField, active: z.boolean().optional() })
  .strict();

export const updateWebhookBody = z
  .object({ url: urlField.optional(), active: z.boolean().optional() })
  .strict()
  .refine((v) => v.url !== undefined || v.active !== undefined, 'url or active is required');

export const attemptSchema = z
  .object({
    attempt: z.number().int(),
    scheduledAt: z.string().describe('When the attempt was due (schedule, or end of an overrun)'),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    statusCode: z.number().int().nullable().describe('HTTP status; null when no response came'),
    durationMs: z.number().int().nullable(),
    error: z
      .string()
      .nullable()
      .describe('Timeout, refusal or connection error; null on a response'),
  })
  .meta({ id: 'WebhookAttempt' });

export const deliverySchema = z
  .object({
    id: z.uuid(),
    webhookId: z.uuid(),
    eventId: z.uuid(),
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']),
    createdAt: z.string(),
    dispatchedAt: z.string().nullable().describe('Start of attempt 1; the schedule counts from it'),
    completedAt: z.string().nullable(),
    attempts: z.array(attemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().optional(),
});
