import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { errorResponses } from '../../http/problem-schema.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { App, AppDeps } from '../../http/types.js';
import { MAX_UPLOAD_BYTES, pdfPart } from '../documents/documents.schemas.js';
import type { SealCertificate } from './seal-certificate.js';
import { ACTIVE_CONTENT_KINDS } from './seal-types.js';
import { createVerifyWorker } from './verify-worker.js';

const verifyResponse = z.object({
  status: z.enum(['sealed', 'altered', 'unknown']),
  detail: z.string(),
  signedAt: z.string().nullable(),
  documentId: z.uuid().nullable(),
  activeContent: z
    .array(z.enum(ACTIVE_CONTENT_KINDS))
    .nullable()
    .describe(
      'What a viewer would run or open unasked (JavaScript, launch and form submission actions, embedded files); null when the file could not be parsed.',
    ),
});

/** POST /api/verify: is this PDF a document sealed by this service, untouched since? */
export function registerVerifyRoutes(
  app: App,
  deps: AppDeps & { certificate: () => Promise<SealCertificate> },
) {
  // Public and CPU-bound (hashing up to 50 MiB per signature): bounded per client address.
  const limit = createRateLimiter({ perSecond: 1, burst: 10, subject: 'this address' });
  // Signatures are parsed, hashed and checked on a thread of their own (verify-worker.ts).
  const worker = createVerifyWorker();
  app.addHook('onClose', () => worker.close());
  app.post(
    '/api/verify',
    {
      config: { multipartBody: z.object({ file: pdfPart }) },
      onRequest: async (request, reply) => limit(`ip:${request.ip}`, reply),
      schema: {
        operationId: 'verifyPdf',
        summary: 'Check whether a PDF was sealed here and is unaltered',
        tags: ['sealing'],
        security: [],
        consumes: ['multipart/form-data'],
        description: 'Multipart part `file`: a PDF. Public: anyone holding a PDF may check it.',
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
      return verifyDocument(
        { db: deps.db, certificate: deps.certificate, check: worker.verify },
        bytes,
      );
    },
  );
}
