import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorResponses } from '../../http/problem-schema.js';
import { originOf } from '../../http/request-origin.js';
import type { App, AppDeps } from '../../http/types.js';
import { sendSignedCopy } from '../documents/files.routes.js';
import { linkStatus, signeeCopy } from './link-status.js';
import { linkStatusResponse, tokenParams } from './signing.schemas.js';

type OnRead = (
  request: FastifyRequest<{ Params: { token: string } }>,
  reply: FastifyReply,
) => Promise<void>;

/**
 * The signing link's reads that answer once its document is closed: what became of it, and the
 * signee's signed copy. Registered after the signee-auth gate, so a link that asks for a code
 * asks for it here too; `onRead` is the signing reads' rate limit.
 */
export function registerLinkStatusRoutes(app: App, deps: AppDeps, onRead: OnRead) {
  const tags = ['signing'];
  const security: Array<Record<string, string[]>> = [];

  app.get(
    '/api/signing/:token/status',
    {
      onRequest: onRead,
      schema: {
        operationId: 'getSigningLinkStatus',
        summary: "What became of a signing link's document, and the signee's signed copy",
        description:
          'Read-only and answered in every state (GET /api/signing/{token} and the signing steps answer 410 once the document is closed): open, sealing, signed (with copy: this signee’s personal link to the sealed PDF, valid 30 days, revocable), declined (declinedBy: the signee who declined, named as the decline notice names them, and whether it was you; never their reason), cancelled, expired; language is the signee’s. The signing page polls it after signing.',
        tags,
        security,
        params: tokenParams,
        response: { 200: linkStatusResponse, ...errorResponses(404) },
      },
    },
    async (request) => linkStatus(deps.db.kysely, request.params.token, deps.config.publicUrl),
  );

  app.get(
    '/api/signing/:token/copy',
    {
      config: { fileResponse: 'The signed PDF, as an attachment' },
      onRequest: onRead,
      schema: {
        operationId: 'downloadSigningLinkCopy',
        summary: 'Download the signed copy by a signing link',
        description:
          'The signee’s copy link of a signed document, served as GET /api/copies/{token} serves it: personal, valid 30 days from the signing, revoked with DELETE /api/documents/{id}/copy-links; every download counted, the first and then at most one an hour audited (copy downloaded). 409 while the document is not signed yet; 410 once the copy link is revoked or expired, or for a declined, cancelled or expired document.',
        tags,
        security,
        params: tokenParams,
        response: { 200: z.unknown(), ...errorResponses(404, 409, 410) },
      },
    },
    async (request, reply) => {
      const { document } = await signeeCopy(
        deps.db.kysely,
        request.params.token,
        originOf(request),
      );
      return sendSignedCopy(deps, reply, document);
    },
  );
}
