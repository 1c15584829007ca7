import { z } from 'zod';

const timestamp = z.string().describe('ISO 8601 UTC timestamp with milliseconds');

/** The BulkSend resource (decisions §11): one CSV or JSON list sent from a template. */
export const bulkSendSchema = z
  .object({
    id: z.uuid(),
    templateId: z.uuid(),
    status: z.enum(['queued', 'running', 'completed']),
    total: z.number().int().describe('rows in the file'),
    created: z.number().int().describe('rows whose document was created and sent'),
    failed: z.number().int().describe('rows refused (see the rows route for why)'),
    createdAt: timestamp,
    finishedAt: timestamp.nullable(),
    waitingUntil: timestamp
      .nullable()
      .describe("while the tenant's daily e-mail quota is spent: when rows go out again"),
  })
  .meta({ id: 'BulkSend' });

/** One row of a bulk send and what became of it. */
export const bulkSendRowSchema = z
  .object({
    row: z.number().int().describe('1-based data row (the CSV header is not counted)'),
    status: z.enum(['pending', 'created', 'failed']),
    error: z.string().nullable(),
    documentId: z.uuid().nullable(),
  })
  .meta({ id: 'BulkSendRow' });

/** `{bulkSend}`: what the bulk-send routes answer. */
export const bulkSendResponse = z.object({ bulkSend: bulkSendSchema });

/** Path parameters of the routes under /api/bulk-sends/{bulkSendId}. */
export const bulkSendParams = z.object({ bulkSendId: z.uuid() });

/** Query of a bulk send's rows. */
export const bulkSendRowsQuery = z.object({
  status: z.enum(['pending', 'created', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.string().max(20).optional().describe('the nextCursor of the previous page'),
});

/** One page of a bulk send's rows, in row order. */
export const bulkSendRowsResponse = z.object({
  rows: z.array(bulkSendRowSchema),
  nextCursor: z.string().nullable(),
});

/** One page of a template's bulk sends, newest first. */
export const bulkSendListResponse = z.object({
  bulkSends: z.array(bulkSendSchema),
  nextCursor: z.string().nullable(),
});

/** The JSON form of `POST /api/templates/{id}/bulk-sends` (the other is a multipart `csv`). */
export const bulkSendJsonBody = z
  .object({
    rows: z
      .array(z.unknown())
      .describe(
        '[{signees: [{role, email, name, language?}], prefill?: {label: value}, externalId?}]: 1 to 10,000',
      ),
  })
  .strict();
