import type { FastifyReply, FastifyRequest } from 'fastify';
import { createRateLimiter, type RateLimit } from '../../http/rate-limit.js';
import { errorResponses } from '../../http/problem-schema.js';
import { originOf } from '../../http/request-origin.js';
import type { App, AppDeps } from '../../http/types.js';
import { sendWebPage } from '../../http/web-assets.js';
import { hashSecret } from '../../lib/ids.js';
import {
  directLinkParams,
  directLinkViewResponse,
  useDirectLinkBody,
  useDirectLinkResponse,
} from './direct-links.schemas.js';
import { useDirectLink, viewDirectLink, type DirectLinkDeps } from './direct-links.service.js';

/** A template's direct link (decisions §11): its page, what the page shows, and a use of it. */
export function registerDirectLinkRoutes(app: App, deps: AppDeps) {
  const d: DirectLinkDeps = { db: deps.db, config: deps.config };
  const tags = ['templates'];
  const security: Array<Record<string, string[]>> = [];
  // Public routes, reached with the link only. In memory, per process: reads as loosely as a
  // signing link's; uses tightly per client address (the link's and the e-mail address's own
  // limits are kept in the database by the service).
  const limits = {
    readLink: createRateLimiter({ perSecond: 2, burst: 30, subject: 'this direct link' }),
    readIp: createRateLimiter({ perSecond: 20, burst: 200, subject: 'this address' }),
    useLink: createRateLimiter({ perSecond: 0.5, burst: 10, subject: 'this direct link' }),
    useIp: createRateLimiter({ perSecond: 30 / 3600, burst: 30, subject: 'this address' }),
  };
  const limited =
    (link: RateLimit, ip: RateLimit) =>
    async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
      // The answers name a tenant's template or hold a live signing link: no cache keeps them.
      reply.header('cache-control', 'no-store');
      ip(`ip:${request.ip}`, reply);
      link(`link:${hashSecret(request.params.token)}`, reply);
    };

  // The signing page's app, which shows the name-and-e-mail form on `/t/…`.
  app.get('/t/:token', { schema: { hide: true } }, async (_request, reply) =>
    sendWebPage(reply, 'sign'),
  );

  app.get(
    '/api/direct-links/:token',
    {
      onRequest: limited(limits.readLink, limits.readIp),
      schema: {
        operationId: 'getDirectLinkView',
        summary: "Open a template's direct link: what its page shows",
        tags,
        security,
        params: directLinkParams,
        response: { 200: directLinkViewResponse, ...errorResponses(404, 410, 429) },
      },
    },
    async (request) => viewDirectLink(d, request.params.token),
  );

  app.post(
    '/api/direct-links/:token/documents',
    {
      onRequest: limited(limits.useLink, limits.useIp),
      schema: {
        operationId: 'useDirectLink',
        summary: 'Use a direct link: become its signee and get your signing link',
        description:
          "Creates a document from the link's template with the visitor as its one signee (source direct_link), sends it for one of the tenant's credits without an invitation e-mail, and answers the visitor's signing URL. The e-mail address is self-declared; the signed copy is e-mailed there. Limits: per link 100 uses an hour and 1,000 a day, per e-mail address 3 an hour and 10 a day, per client address (429 rate_limited with Retry-After).",
        tags,
        security,
        params: directLinkParams,
        body: useDirectLinkBody,
        response: {
          201: useDirectLinkResponse,
          ...errorResponses(402, 404, 410, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { signingUrl } = await useDirectLink(d, {
        token: request.params.token,
        name: request.body.name,
        email: request.body.email,
        origin: originOf(request),
      });
      // The visitor signs within seconds: have the sealing thread ready.
      deps.warmUpSealing();
      return reply.code(201).send({ signingUrl });
    },
  );
}
