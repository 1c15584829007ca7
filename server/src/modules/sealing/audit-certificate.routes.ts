import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { contentDisposition } from '../../http/content-disposition.js';
import { errorResponses } from '../../http/problem-schema.js';
import type { App, AppDeps } from '../../http/types.js';
import { documentParams } from '../documents/documents.schemas.js';
import type { SealCertificate } from './seal-certificate.js';
import { CERTIFICATES_IN_FLIGHT, makeAuditCertificate } from './audit-certificate.service.js';

/** GET /api/documents/{id}/certificate: a document's audit certificate alone, as a sealed PDF. */
export function registerAuditCertificateRoutes(
  app: App,
  deps: AppDeps & { certificate: () => Promise<SealCertificate> },
) {
  const certificateDeps = {
    db: deps.db,
    storage: deps.storage,
    sandbox: deps.config.env === 'sandbox',
    certificate: deps.certificate,
  };

  app.get(
    '/api/documents/:documentId/certificate',
    {
      onRequest: deps.auth.requireVerifiedUser,
      config: { fileResponse: 'The audit certificate, a sealed PDF, as an attachment' },
      schema: {
        operationId: 'getAuditCertificate',
        summary: "Download a document's audit certificate as a PDF",
        tags: ['documents'],
        description: `The audit certificate alone, made now: the audit trail so far, the fields, the original's SHA-256 and, once signed, the sealed file's SHA-256 and seal mode, in the document's language; sealed by the seal certificate (PAdES, no time stamp). Any status but draft (409 document_not_sent). Made on the sealing thread, at most ${CERTIFICATES_IN_FLIGHT} at once per process (beyond them 429).`,
        params: documentParams,
        response: {
          200: z.unknown(),
          ...errorResponses(401, 403, 404, 'document_not_sent', 429),
        },
      },
    },
    async (request, reply) => {
      const { bytes, filename } = await makeAuditCertificate(certificateDeps, {
        documentId: request.params.documentId,
        userId: principalOf(request).userId,
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition(filename))
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );
}
