import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import type { App, AppDeps } from '../../http/types.js';
import { findDocument } from './documents.repo.js';
import { verifyDownloadUrl } from './download-url.js';

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Serves a document's file through a signed, expiring download URL (the URL is the credential). */
export function registerFileRoutes(app: App, deps: AppDeps) {
  app.get(
    '/api/files/:documentId/:kind',
    {
      schema: {
        tags: ['documents'],
        description: 'The target of a downloadUrl: signed, expires after DOWNLOAD_URL_TTL_SECONDS.',
        security: [],
        params: z.object({ documentId: z.uuid(), kind: z.enum(['original', 'sealed']) }),
        querystring: z.object({
          expires: z.coerce.number().int().positive(),
          signature: z.string().min(1).max(200),
        }),
      },
    },
    async (request, reply) => {
      const { documentId, kind } = request.params;
      verifyDownloadUrl({ secretKey: deps.config.secretKey, documentId, kind, ...request.query });
      const document = await findDocument(deps.db.kysely, documentId);
      const key = kind === 'sealed' ? document?.sealed_file : document?.file;
      if (!document || !key) throw new AppError('not_found', 'This file no longer exists.');
      const stream = await deps.storage.get(key).catch(() => {
        throw new AppError('not_found', 'This file no longer exists.');
      });
      const filename =
        kind === 'sealed'
          ? document.original_file.replace(/(\.pdf)?$/i, '-signed.pdf')
          : document.original_file;
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition(filename))
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );
}
