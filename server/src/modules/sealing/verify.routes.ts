import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { SESSION_COOKIE } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import { drainRefusedBody } from '../../http/lingering-close.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { App, AppDeps } from '../../http/types.js';
import { clientKeyOf } from '../accounts/login-throttle.js';
import { MAX_UPLOAD_BYTES, pdfPart } from '../documents/documents.schemas.js';
import type { SealCertificate } from './seal-certificate.js';
import { ACTIVE_CONTENT_KINDS, SEAL_LEVELS } from './seal-types.js';
import { createVerifyAdmission } from './verify-admission.js';
import {
  createVerifyWorker,
  VERIFY_DEADLINE_ANONYMOUS_MS,
  VERIFY_DEADLINE_MS,
  VERIFY_THREADS,
} from './verify-worker.js';

const verifyResponse = z.object({
  status: z.enum(['sealed', 'altered', 'unknown']),
  detail: z.string(),
  signedAt: z.string().nullable(),
  documentId: z.uuid().nullable(),
  activeContent: z
    .array(z.enum(ACTIVE_CONTENT_KINDS))
    .nullable()
    .describe(
      "What a viewer would run or open unasked (JavaScript, launch and form submission actions, embedded files other than the seal's own original.pdf and evidence.json); null when the file could not be parsed.",
    ),
  level: z
    .enum(SEAL_LEVELS)
    .nullable()
    .describe(
      "The seal's PAdES baseline level, read from the file: B-T with a valid signature time stamp, B-LT when a DSS after the seal holds the certificates and revocation data (OCSP or CRL) of its and its time stamp's chains, B-LTA when a valid document time stamp covers that DSS and the file; null unless the seal is intact.",
    ),
  signatures: z
    .array(
      z.object({
        kind: z.enum(['signature', 'document_timestamp']),
        fieldName: z.string().nullable(),
        ours: z.boolean().describe("Made by this service's seal certificate."),
        signer: z.string().nullable().describe("The signer's or time-stamp authority's name."),
        signedAt: z
          .string()
          .nullable()
          .describe(
            "A document time stamp's time; for our seal its time stamp's, else the claimed /M; null when the signature is not for these bytes.",
          ),
        timestampedAt: z.string().nullable().describe('The time of a valid RFC 3161 time stamp.'),
        valid: z.boolean().describe('Its digest matches the bytes it covers and it verifies.'),
        coversRevision: z.boolean().describe('It covers the file up to the end of a revision.'),
        coversWholeFile: z.boolean(),
      }),
    )
    .describe('Every signature and document time stamp in the file, in order.'),
  dss: z
    .object({
      present: z.boolean(),
      certificates: z.number().int(),
      ocsps: z.number().int(),
      crls: z.number().int(),
      coversChains: z
        .boolean()
        .describe(
          "Every certificate of our seal's and its time stamp's chains is there with revocation data, self-signed roots excepted.",
        ),
    })
    .describe('The document security store (validation data) in the file.'),
});

/** Verifications that may wait for a thread beyond those running. */
export const VERIFY_WAITING = 4;
/** How long an admitted request may take to upload its file before its connection is cut. */
const VERIFY_UPLOAD_MS = 60_000;

/** POST /api/verify: is this PDF a document sealed by this service, untouched since? */
export function registerVerifyRoutes(
  app: App,
  deps: AppDeps & { certificate: () => Promise<SealCertificate> },
) {
  // Public and CPU-bound (hashing up to 50 MiB per signature): bounded per client address.
  const limit = createRateLimiter({ perSecond: 1, burst: 10, subject: 'this address' });
  // Signatures are parsed, hashed and checked on threads of their own (verify-worker.ts), one
  // file per client address at a time and a bounded queue, so one address cannot take every
  // thread nor make others wait behind its files, and the uploads held stay bounded.
  const worker = createVerifyWorker();
  const admission = createVerifyAdmission({ slots: VERIFY_THREADS + VERIFY_WAITING });
  // Each admitted request's deadline, and its signal: aborted when its client goes away first.
  const admitted = new WeakMap<object, { deadlineMs: number; signal: AbortSignal }>();
  app.addHook('onClose', () => worker.close());

  // A valid API key or session earns the longer deadline; anything else (none, an unknown or
  // revoked key, a cross-site session) verifies anonymously: the route is public.
  async function deadlineOf(request: FastifyRequest, reply: FastifyReply): Promise<number> {
    if (!request.headers['x-api-key'] && !request.cookies[SESSION_COOKIE]) {
      return VERIFY_DEADLINE_ANONYMOUS_MS;
    }
    try {
      await deps.auth.requireUser(request, reply);
      return VERIFY_DEADLINE_MS;
    } catch {
      request.principal = null;
      return VERIFY_DEADLINE_ANONYMOUS_MS;
    }
  }

  // Before the body is read: a refused request costs no upload.
  async function admit(request: FastifyRequest, reply: FastifyReply) {
    let release: () => void;
    let deadlineMs: number;
    try {
      limit(`ip:${request.ip}`, reply);
      deadlineMs = await deadlineOf(request, reply);
      release = admission.admit(clientKeyOf(request.ip), deadlineMs);
    } catch (err) {
      // The client may still be sending its file: let it finish, so that it reads the 429.
      drainRefusedBody(request.raw);
      throw err;
    }
    const controller = new AbortController();
    admitted.set(request, { deadlineMs, signal: controller.signal });
    // A stalled upload would keep its place for ever (Fastify sets no request timeout).
    const stalled = setTimeout(() => {
      if (!request.raw.readableEnded) request.raw.socket?.destroy();
    }, VERIFY_UPLOAD_MS).unref();
    // 'close' follows the answer, or comes first when the client hangs up: then its job leaves
    // the queue or its thread is ended, and the slot is free either way.
    reply.raw.once('close', () => {
      clearTimeout(stalled);
      release();
      if (!reply.raw.writableFinished) controller.abort();
    });
  }

  app.post(
    '/api/verify',
    {
      config: { multipartBody: z.object({ file: pdfPart }) },
      onRequest: admit,
      schema: {
        operationId: 'verifyPdf',
        summary: 'Check whether a PDF was sealed here and is unaltered',
        tags: ['sealing'],
        security: [],
        consumes: ['multipart/form-data'],
        description: `Multipart part \`file\`: a PDF. Public: anyone holding a PDF may check it. One verification at a time per client address (a second one while the first is uploading, waiting or running answers 429 with Retry-After), at most ${VERIFY_THREADS + VERIFY_WAITING} in all (beyond them 429). A check stops after ${VERIFY_DEADLINE_ANONYMOUS_MS / 1000} s, or ${VERIFY_DEADLINE_MS / 1000} s with a valid \`X-Api-Key\` or session (then 422).`,
        response: { 200: verifyResponse, ...errorResponses(413, 415, 422, 429) },
      },
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw new AppError('unsupported_media_type', 'Send multipart/form-data with a file part.');
      }
      const file = await request.file({ limits: { fileSize: MAX_UPLOAD_BYTES - 1 } });
      if (!file || file.fieldname !== 'file') {
        throw new AppError('validation_failed', 'A PDF file part named "file" is required.', {
          errors: [{ path: 'file', message: 'is required' }],
        });
      }
      const bytes = await file.toBuffer();
      // Loaded on first use, like sealing: the PDF and certificate libraries stay out of memory
      // until a PDF is checked.
      const { verifyDocument } = await import('./verify-document.js');
      const run = admitted.get(request);
      return verifyDocument(
        {
          db: deps.db,
          certificate: deps.certificate,
          check: (pdf, options) => worker.verify(pdf, options, run),
        },
        bytes,
      );
    },
  );
}
