import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import type { App, AppDeps } from '../../http/types.js';
import { findDocument, type DocumentRow } from './documents.repo.js';
import { verifyDownloadUrl, type FileKind } from './download-url.js';
import { findTemplate } from '../templates/templates.repo.js';
import { pdfFilename, signedFilename } from './after-signing.js';
import { openCopyLink, revokeCopyLinks } from './copy-links.js';
import { errorResponses } from '../../http/problem-schema.js';
import { originOf } from '../../http/request-origin.js';
import { principalOf } from '../../http/auth.js';
import { contentDisposition } from '../../http/content-disposition.js';
import { requireMembership } from '../tenants/tenants.service.js';

// The stored file a download URL names, and the name it is downloaded under.
async function downloadable(deps: AppDeps, id: string, kind: FileKind) {
  if (kind === 'template') {
    const template = await findTemplate(deps.db.kysely, id);
    return template && { key: template.file, filename: pdfFilename(template.original_file) };
  }
  const document = await findDocument(deps.db.kysely, id);
  const key = kind === 'sealed' ? document?.sealed_file : document?.file;
  if (!document || !key) return null;
  return {
    key,
    filename: kind === 'sealed' ? signedFilename(document) : pdfFilename(document.original_file),
  };
}

/** Answers a signed document's sealed PDF as an attachment named `{original}-signed.pdf`. */
export async function sendSignedCopy(deps: AppDeps, reply: FastifyReply, document: DocumentRow) {
  const stream = await deps.storage.get(document.sealed_file!).catch(() => {
    throw new AppError('not_found', 'This file no longer exists.');
  });
  return reply
    .type('application/pdf')
    .header('content-disposition', contentDisposition(signedFilename(document)))
    .header('cache-control', 'private, no-store')
    .header('referrer-policy', 'no-referrer')
    .send(stream);
}

/**
 * Serves a document's file through a signed, expiring download URL (the URL is the credential),
 * and a signed copy through the personal link of its completion e-mail.
 */
export function registerFileRoutes(app: App, deps: AppDeps) {
  app.get(
    '/api/files/:documentId/:kind',
    {
      config: { fileResponse: 'The PDF, as an attachment' },
      schema: {
        operationId: 'downloadFile',
        summary: 'Download a file by its signed download URL',
        tags: ['documents'],
        description:
          "The target of a downloadUrl (a document's, or a template's: kind template, the template's id): signed, expires after DOWNLOAD_URL_TTL_SECONDS.",
        security: [],
        params: z.object({
          documentId: z.uuid(),
          kind: z.enum(['original', 'sealed', 'template']),
        }),
        querystring: z.object({
          expires: z.coerce.number().int().positive(),
          signature: z.string().min(1).max(200),
        }),
        response: {
          200: z.unknown(),
          ...errorResponses('url_expired', 404, 422),
        },
      },
    },
    async (request, reply) => {
      const { documentId, kind } = request.params;
      verifyDownloadUrl({ secretKey: deps.config.secretKey, documentId, kind, ...request.query });
      const file = await downloadable(deps, documentId, kind);
      if (!file) throw new AppError('not_found', 'This file no longer exists.');
      const stream = await deps.storage.get(file.key).catch(() => {
        throw new AppError('not_found', 'This file no longer exists.');
      });
      const filename = file.filename;
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition(filename))
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );

  app.get(
    '/api/copies/:token',
    {
      config: { fileResponse: 'The signed PDF, as an attachment' },
      schema: {
        operationId: 'downloadSignedCopy',
        summary: "Download a signed copy by a signee's copy link",
        tags: ['documents'],
        description:
          'A signed copy too large to attach to the completion e-mail: the link in that e-mail, personal, valid 30 days, revocable; every download is counted; the first, then at most one an hour, is audited (copy downloaded, with the count). 410 once revoked or expired.',
        security: [],
        params: z.object({ token: z.string().min(1).max(200) }),
        response: { 200: z.unknown(), ...errorResponses(404, 410) },
      },
    },
    async (request, reply) => {
      const { document } = await openCopyLink(deps.db.kysely, {
        token: request.params.token,
        origin: originOf(request),
      });
      return sendSignedCopy(deps, reply, document);
    },
  );

  app.delete(
    '/api/documents/:documentId/copy-links',
    {
      onRequest: deps.auth.requireVerifiedUser,
      schema: {
        operationId: 'revokeCopyLinks',
        summary: "Revoke a document's copy links",
        tags: ['documents'],
        description:
          'Revokes every link to the signed copy that the completion e-mails carried (sent instead of an attachment above 10 MiB). Answers how many still worked.',
        params: z.object({ documentId: z.uuid() }),
        response: {
          200: z.object({ revoked: z.number().int() }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      const userId = principalOf(request).userId;
      const document = await findDocument(deps.db.kysely, request.params.documentId);
      if (!document) throw new AppError('not_found', 'No such document.');
      await requireMembership(deps.db.kysely, {
        tenantId: document.tenant_id,
        userId,
        action: 'document.manage',
        notFound: 'No such document.',
      });
      const revoked = await revokeCopyLinks(deps.db.kysely, {
        document,
        userId,
        origin: originOf(request),
      });
      return { revoked };
    },
  );
}
