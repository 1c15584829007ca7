import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/ids.js';
import { createRateLimiter, type RateLimit } from '../../http/rate-limit.js';
import { errorResponses } from '../../http/problem-schema.js';
import { originOf } from '../../http/request-origin.js';
import type { App, AppDeps } from '../../http/types.js';
import { sendWebPage } from '../../http/web-assets.js';
import { allowFraming, embedOriginsMeta } from '../../http/frame-ancestors.js';
import {
  approveBody,
  declineBody,
  signBody,
  signingStepResponse,
  signingViewResponse,
  tokenParams,
} from './signing.schemas.js';
import { checkSignaturePixels, checkSignaturePng } from './signature-image.js';
import * as signing from './signing.service.js';
import { approveDocument } from './approve.js';
import type { SigneeRole } from '../documents/signee-roles.js';
import { recordPageView } from './first-view.js';
import { embedOriginsOfLink } from './embedding.js';
import { registerSigneeAuthRoutes } from './signee-auth.routes.js';
import { presentField } from '../fields/fields.service.js';
import { registerAttachmentRoutes } from './attachments.routes.js';
import { reencodeSignature } from './uploaded-signature.js';
import { registerLinkStatusRoutes } from './link-status.routes.js';

function present(r: {
  signee: {
    id: string;
    name: string;
    email: string;
    status: 'pending' | 'signed' | 'declined';
    language: string | null;
    role: SigneeRole;
  };
  document: {
    id: string;
    name: string;
    status: string;
    signing_message: string | null;
    email_language: string;
    redirect_url: string | null;
  };
}) {
  return {
    signee: {
      id: r.signee.id,
      name: r.signee.name,
      email: r.signee.email,
      status: r.signee.status,
      role: r.signee.role,
    },
    document: {
      id: r.document.id,
      name: r.document.name,
      status: r.document.status,
      signingMessage: r.document.signing_message,
      language: r.signee.language ?? r.document.email_language,
      redirectUrl: r.document.redirect_url,
    },
  };
}

// A typed mark as given; a drawn one decoded, its PNG chunks checked here and its image data's
// inflated size on a bounded thread (422 naming it).
async function adoptedMark(
  mark:
    | { type: 'typed'; text: string }
    | { type: 'drawn'; image: string }
    | { type: 'uploaded'; image: string },
  name: 'signature' | 'initials',
): Promise<signing.SignatureInput> {
  if (mark.type === 'typed') return { type: 'typed', text: mark.text };
  if (mark.type === 'uploaded')
    return { type: 'uploaded', image: await reencodeSignature(mark.image, name) };
  const image = Buffer.from(mark.image.slice(mark.image.indexOf(',') + 1), 'base64');
  const problem = checkSignaturePng(image) ?? (await checkSignaturePixels(image));
  if (problem) {
    throw new AppError('validation_failed', `The drawn ${name} ${problem}.`, {
      errors: [{ path: `body.${name}.image`, message: problem }],
    });
  }
  return { type: 'drawn', image };
}

/** The JSON behind the signing page; the link's token is the credential. */
export function registerSigningRoutes(app: App, deps: AppDeps) {
  // First: its gate joins every signing route registered after it (signee-auth.routes.ts).
  registerSigneeAuthRoutes(app, deps);
  registerAttachmentRoutes(app, deps);
  const d: signing.SigningDeps = {
    db: deps.db,
    storage: deps.storage,
    config: deps.config,
    wakeJobs: () => deps.jobs.wake(),
  };
  const tags = ['signing'];
  const security: Array<Record<string, string[]>> = [];
  // Public routes, reached with a link only: bounded per link and per client address, reads
  // loosely (a page load makes a few), writes tightly (a signee signs or declines once).
  const limits = {
    readLink: createRateLimiter({ perSecond: 2, burst: 30, subject: 'this signing link' }),
    readIp: createRateLimiter({ perSecond: 20, burst: 200, subject: 'this address' }),
    writeLink: createRateLimiter({ perSecond: 0.1, burst: 5, subject: 'this signing link' }),
    writeIp: createRateLimiter({ perSecond: 1, burst: 20, subject: 'this address' }),
  };
  const limited =
    (link: RateLimit, ip: RateLimit) =>
    async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
      // Signing answers hold the signee's name and a live link: no cache may keep them.
      reply.header('cache-control', 'no-store');
      ip(`ip:${request.ip}`, reply);
      link(`link:${hashSecret(request.params.token)}`, reply);
    };
  const onRead = limited(limits.readLink, limits.readIp);
  const onWrite = limited(limits.writeLink, limits.writeIp);
  registerLinkStatusRoutes(app, deps, onRead);

  // The page itself; everything it shows comes from the JSON routes below.
  // Opening the page counts as viewing the link (signee.viewed), before its JSON is fetched.
  app.get<{ Params: { token: string } }>(
    '/sign/:token',
    { schema: { hide: true } },
    async (request, reply) => {
      await recordPageView(d, request.params.token, originOf(request));
      // A tenant's embedOrigins may frame the page, which posts its messages to them only.
      const embedOrigins = await embedOriginsOfLink(deps.db, request.params.token);
      allowFraming(reply, embedOrigins);
      return sendWebPage(reply, 'sign', { head: embedOriginsMeta(embedOrigins) });
    },
  );

  app.get(
    '/api/signing/:token',
    {
      onRequest: onRead,
      schema: {
        operationId: 'getSigningView',
        summary: 'Open a signing link: the document and your part',
        tags,
        security,
        params: tokenParams,
        response: {
          200: signingViewResponse,
          ...errorResponses(404, 410),
        },
      },
    },
    async (request) => {
      const view = await signing.viewSigning(d, request.params.token, originOf(request));
      const base = present(view);
      return {
        signee: base.signee,
        document: { ...base.document, senderName: view.senderName },
        canSign: view.canSign,
        reason: view.reason,
        fileUrl: `/api/signing/${request.params.token}/file`,
        fields: view.fields.map(presentField),
        filledFields: view.filledFields.map((f) => ({
          ...presentField(f.field),
          signeeName: f.signeeName,
        })),
        pages: view.pages,
        brand: view.brand,
      };
    },
  );

  app.get(
    '/api/signing/:token/file',
    {
      config: { fileResponse: 'The PDF to sign' },
      onRequest: onRead,
      schema: {
        operationId: 'getSigningFile',
        summary: 'The PDF being signed',
        tags,
        security,
        params: tokenParams,
        response: { 200: z.unknown(), ...errorResponses(404, 410) },
      },
    },
    async (request, reply) => {
      const { stream } = await signing.signingFile(d, request.params.token);
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );

  app.post(
    '/api/signing/:token/sign',
    {
      // Room for an uploaded signature and initials (1 MiB each, as base64) with the fields.
      bodyLimit: 4 * 1024 * 1024,
      onRequest: onWrite,
      schema: {
        operationId: 'sign',
        summary: 'Sign: adopt a signature and fill your fields',
        tags,
        security,
        params: tokenParams,
        body: signBody,
        response: {
          200: signingStepResponse,
          ...errorResponses(404, 409, 410, 422),
        },
      },
    },
    async (request) => {
      const { initials } = request.body;
      return present(
        await signing.signDocument(d, {
          token: request.params.token,
          signature: await adoptedMark(request.body.signature, 'signature'),
          initials: initials && (await adoptedMark(initials, 'initials')),
          fields: request.body.fields,
          origin: originOf(request),
        }),
      );
    },
  );

  app.post(
    '/api/signing/:token/approve',
    {
      onRequest: onWrite,
      schema: {
        operationId: 'approve',
        summary: "Approve: an approver's yes, with no signature",
        description:
          'For a signee whose role is approver: their turn in the signing order, as a signature would be (status signed, signedAt, signee.status_changed, audit action approved). No body, or {}. A signer gets 409 invalid_status; an approver rejects with POST /api/signing/{token}/decline {reason}.',
        tags,
        security,
        params: tokenParams,
        body: approveBody,
        response: {
          200: signingStepResponse,
          ...errorResponses(404, 409, 410, 422),
        },
      },
    },
    async (request) =>
      present(await approveDocument(d, { token: request.params.token, origin: originOf(request) })),
  );

  app.post(
    '/api/signing/:token/decline',
    {
      onRequest: onWrite,
      schema: {
        operationId: 'decline',
        summary: 'Decline to sign (or, for an approver, reject), with a reason',
        tags,
        security,
        params: tokenParams,
        body: declineBody,
        response: {
          200: signingStepResponse,
          ...errorResponses(404, 409, 410, 422),
        },
      },
    },
    async (request) =>
      present(
        await signing.declineDocument(d, {
          token: request.params.token,
          reason: request.body.reason,
          origin: originOf(request),
        }),
      ),
  );
}
