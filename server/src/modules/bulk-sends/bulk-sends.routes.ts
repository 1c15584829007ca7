import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { requestFingerprint } from '../../http/idempotency.js';
import { errorResponses } from '../../http/problem-schema.js';
import { originOf } from '../../http/request-origin.js';
import type { App, AppDeps } from '../../http/types.js';
import { AppError, validationError, type FieldError } from '../../lib/errors.js';
import { templateParams } from '../templates/templates.schemas.js';
import {
  bulkSendJsonBody,
  bulkSendListResponse,
  bulkSendParams,
  bulkSendResponse,
  bulkSendRowsQuery,
  bulkSendRowsResponse,
} from './bulk-sends.schemas.js';
import * as bulkSends from './bulk-sends.service.js';

/** The largest CSV a bulk send takes (decisions §11: 10,000 rows fit well below it). */
export const MAX_CSV_BYTES = 10 * 1024 * 1024;
// The JSON form holds the same rows with their keys spelled out.
const JSON_BODY_LIMIT = 12 * 1024 * 1024;
// Room for the multipart framing around the file when judging Content-Length up front.
const MULTIPART_SLACK_BYTES = 64 * 1024;

const tooLarge = () =>
  new AppError('payload_too_large', 'The CSV file must be at most 10 MiB (10,000 rows).');

// 413 before reading a body whose announced length is over either form's limit.
async function refuseOversizedBody(request: FastifyRequest) {
  const length = Number(request.headers['content-length'] ?? 0);
  const multipart = request.headers['content-type']?.toLowerCase().startsWith('multipart/');
  if (multipart && length > MAX_CSV_BYTES + MULTIPART_SLACK_BYTES) throw tooLarge();
}

/**
 * The `csv` part of a multipart body, as a file or a text part; reading stops at the limit
 * (413) instead of reading the rest of the upload.
 */
async function readCsvPart(request: FastifyRequest): Promise<Buffer> {
  const errors: FieldError[] = [];
  let csv: Buffer | null = null;
  const limits = { fileSize: MAX_CSV_BYTES, fieldSize: MAX_CSV_BYTES, files: 1, fields: 4 };
  for await (const part of request.parts({ limits })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'csv' || csv) {
        part.file.resume();
        await new Promise((resolve) => part.file.on('end', resolve));
        errors.push({ path: part.fieldname, message: 'one file is accepted, in the part "csv"' });
        continue;
      }
      part.file.on('limit', () => part.file.destroy(tooLarge()));
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      if (part.file.truncated) throw tooLarge();
      csv = Buffer.concat(chunks);
    } else if (part.fieldname === 'csv' && !csv) {
      if (part.valueTruncated) throw tooLarge();
      csv = Buffer.from(String(part.value), 'utf8');
    } else {
      errors.push({ path: part.fieldname, message: 'not a part of this request (send "csv")' });
    }
  }
  if (!csv) errors.push({ path: 'csv', message: 'a CSV part named "csv" is required' });
  if (errors.length > 0 || !csv) throw validationError(errors);
  return csv;
}

const JSON_EXAMPLE = {
  rows: [
    {
      signees: [
        { role: 'Client', email: 'ada@example.com', name: 'Ada Lovelace', language: 'en' },
        { role: 'Landlord', email: 'bob@example.com', name: 'Bob Jones' },
      ],
      prefill: { 'Start date': '2027-01-01' },
      externalId: 'crm-1042',
    },
  ],
};

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(200).optional(),
});

/** Bulk send (decisions §11): start one from a template's CSV or JSON rows, follow its progress. */
export function registerBulkSendRoutes(app: App, deps: AppDeps) {
  const onRequest = deps.auth.requireVerifiedUser;
  const d: bulkSends.BulkSendDeps = { db: deps.db, wakeJobs: () => deps.jobs.wake() };
  const tags = ['templates'];

  app.post(
    '/api/templates/:templateId/bulk-sends',
    {
      onRequest: [onRequest, refuseOversizedBody],
      bodyLimit: JSON_BODY_LIMIT,
      schema: {
        operationId: 'createBulkSend',
        summary: 'Send a template to every row of a CSV file or a JSON list',
        tags,
        description:
          'Either multipart/form-data with one part "csv" (UTF-8, at most 10 MiB and 10,000 rows; header <role>.email, <role>.name for every role, optional <role>.language, externalId and field labels to prefill; "," or ";" as delimiter), or JSON {rows: [{signees: [{role, email, name, language?}], prefill?, externalId?}]}. The whole file is checked first: a bad header, no valid row, or fewer credits than one per role of every valid row creates nothing (422, 402). Bad rows are kept as failed (GET /api/bulk-sends/{id}/rows?status=failed) and not charged; the others are created and sent in order, in the background, within the daily e-mail quota.',
        params: templateParams,
        // A multipart body reaches validation as null.
        body: bulkSendJsonBody.meta({ examples: [JSON_EXAMPLE] }).nullish(),
        response: {
          202: bulkSendResponse,
          ...errorResponses(401, 402, 403, 404, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      let source: bulkSends.BulkSource;
      if (request.isMultipart()) {
        const csv = await readCsvPart(request);
        // Multipart bodies skip the global idempotency hook: the file's hash stands for it.
        const fingerprint = () =>
          requestFingerprint([request.url, createHash('sha256').update(csv).digest('hex')]);
        if (await deps.idempotency.begin(request, reply, fingerprint)) return reply;
        source = { csv };
      } else if (request.body) {
        source = { rows: request.body.rows };
      } else {
        throw validationError(
          [
            {
              path: 'body',
              message: 'send JSON {rows: [...]} or a multipart/form-data "csv" part',
            },
          ],
          'No rows were sent.',
        );
      }
      const bulk = await bulkSends.createBulkSend(d, {
        templateId: request.params.templateId,
        userId: principal.userId,
        senderName: principal.name,
        origin: originOf(request),
        source,
      });
      return reply.code(202).send({ bulkSend: bulkSends.presentBulkSend(bulk) });
    },
  );

  app.get(
    '/api/bulk-sends/:bulkSendId',
    {
      onRequest,
      schema: {
        operationId: 'getBulkSend',
        summary: "A bulk send's progress",
        tags,
        params: bulkSendParams,
        response: { 200: bulkSendResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const bulk = await bulkSends.getBulkSend(d, {
        bulkSendId: request.params.bulkSendId,
        userId: principalOf(request).userId,
      });
      return { bulkSend: bulkSends.presentBulkSend(bulk) };
    },
  );

  app.get(
    '/api/bulk-sends/:bulkSendId/rows',
    {
      onRequest,
      schema: {
        operationId: 'listBulkSendRows',
        summary: "A bulk send's rows in row order: why each failed, which document each became",
        tags,
        params: bulkSendParams,
        querystring: bulkSendRowsQuery,
        response: { 200: bulkSendRowsResponse, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) =>
      bulkSends.listBulkSendRows(d, {
        bulkSendId: request.params.bulkSendId,
        userId: principalOf(request).userId,
        ...request.query,
      }),
  );

  app.get(
    '/api/templates/:templateId/bulk-sends',
    {
      onRequest,
      schema: {
        operationId: 'listBulkSends',
        summary: "A template's bulk sends, newest first",
        tags,
        params: templateParams,
        querystring: listQuery,
        response: { 200: bulkSendListResponse, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const page = await bulkSends.listBulkSends(d, {
        templateId: request.params.templateId,
        userId: principalOf(request).userId,
        ...request.query,
      });
      return {
        bulkSends: page.bulkSends.map(bulkSends.presentBulkSend),
        nextCursor: page.nextCursor,
      };
    },
  );
}
