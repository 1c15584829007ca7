import type { FastifyReply, FastifyRequest } from 'fastify';
import { embedOriginsOfLink } from './embedding.js';
import { z } from 'zod';
import { hashSecret } from '../../lib/ids.js';
import { errorResponses, problemSchema } from '../../http/problem-schema.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import { originOf } from '../../http/request-origin.js';
import type { App, AppDeps } from '../../http/types.js';
import { setAuthCookie } from './auth-cookie.js';
import { createAuthGate } from './auth-gate.js';
import { acceptIdentity } from './identity-auth.js';
import { resolveAuthLink, sendCode, verifyCode } from './signee-auth.js';
import { tokenParams } from './signing.schemas.js';

const authBody = z
  .object({
    code: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('the access code, or the 6-digit code e-mailed by POST …/auth/send'),
    identity: z
      .string()
      .min(1)
      .max(16_384)
      .optional()
      .describe(
        "an identity token from the tenant's application (the signing URL's ?identity=): a JWT signed with one of its identity keys",
      ),
  })
  .strict()
  .refine((b) => (b.code === undefined) !== (b.identity === undefined), {
    message: 'give either code or identity',
  });

const authResponse = z.object({
  method: z
    .enum(['access_code', 'email_otp', 'identity'])
    .describe('what verified the link: the code asked for, or an identity token'),
  expiresAt: z.string().describe('when the verification cookie set with this answer expires'),
});

const sendResponse = z.object({
  expiresAt: z.string().describe('when the code e-mailed now stops working (10 minutes)'),
  resendAfter: z.string().describe('the earliest another code may be asked for'),
});

/** The 401 a gated signing route answers before its link is verified (for its OpenAPI). */
const AUTH_REQUIRED = problemSchema.describe(
  'problem+json with code `signee_auth_required` and `method`: verify the link first (POST /api/signing/{token}/auth)',
);

/**
 * Signer verification (decisions §13): the gate in front of every signing API route (added to
 * each by an onRoute hook, so a route added later cannot be left out), and the routes that
 * satisfy it. Call before registering the other signing routes.
 */
export function registerSigneeAuthRoutes(app: App, deps: AppDeps) {
  const d = { db: deps.db, config: deps.config, wakeJobs: () => deps.jobs.wake() };
  const gate = createAuthGate({ db: deps.db, secretKey: deps.config.secretKey });
  app.addHook('onRoute', (route) => {
    const url = route.url ?? '';
    if (!url.startsWith('/api/signing/:token') || url.startsWith('/api/signing/:token/auth')) {
      return;
    }
    const hooks = [route.onRequest ?? []].flat();
    // A GET's HEAD twin arrives with the GET's hooks, the gate among them.
    if (!hooks.includes(gate)) route.onRequest = [...hooks, gate];
    const responses = route.schema?.response as Record<number, unknown> | undefined;
    if (responses && !(401 in responses)) responses[401] = AUTH_REQUIRED;
  });

  const tags = ['signing'];
  const security: Array<Record<string, string[]>> = [];
  // A person types a code a few times; the lock (five wrong codes) is what stops guessing.
  const linkLimit = createRateLimiter({ perSecond: 0.5, burst: 20, subject: 'this signing link' });
  const ipLimit = createRateLimiter({ perSecond: 2, burst: 40, subject: 'this address' });
  const limited = async (
    request: FastifyRequest<{ Params: { token: string } }>,
    reply: FastifyReply,
  ) => {
    reply.header('cache-control', 'no-store');
    ipLimit(`ip:${request.ip}`, reply);
    linkLimit(`link:${hashSecret(request.params.token)}`, reply);
  };

  app.post(
    '/api/signing/:token/auth',
    {
      onRequest: limited,
      schema: {
        operationId: 'verifySigningLink',
        summary: 'Verify a signing link: a code or an identity token',
        description:
          "Satisfies the link's verification for this browser: answers 200 and sets an HttpOnly cookie for this link, valid 1 hour, which every other signing route then needs. {code}: the access code, or the e-mailed code (a link with auth none answers 409). A wrong code answers 401 signee_auth_invalid with remainingAttempts; the fifth wrong code within 15 minutes locks the link for 15 minutes (429 signee_auth_locked with Retry-After). {identity}: a JWT from the tenant's application (docs/signing.md), on any link; a refused one answers 401 identity_invalid, identity_signature, identity_expired, identity_lifetime, identity_audience, identity_email or identity_replayed.",
        tags,
        security,
        params: tokenParams,
        body: authBody,
        response: {
          200: authResponse,
          ...errorResponses(
            404,
            409,
            410,
            422,
            429,
            'signee_auth_invalid',
            'signee_auth_locked',
            'identity_invalid',
            'identity_signature',
            'identity_expired',
            'identity_lifetime',
            'identity_audience',
            'identity_email',
            'identity_replayed',
          ),
        },
      },
    },
    async (request, reply) => {
      const link = await resolveAuthLink(deps.db, request.params.token);
      const origin = originOf(request);
      const { identity, code } = request.body;
      const method =
        identity !== undefined
          ? (await acceptIdentity(d, { link, token: identity, origin }), 'identity' as const)
          : (await verifyCode(d, { link, code: code!, origin })).method;
      // A page the tenant lets other sites frame gets a cookie the browser keeps in a frame.
      const framed = (await embedOriginsOfLink(deps.db, request.params.token)).length > 0;
      const { expiresAt } = setAuthCookie(request, reply, {
        secretKey: deps.config.secretKey,
        signeeId: link.signeeId,
        sameSite: framed ? 'none' : 'lax',
      });
      return { method, expiresAt };
    },
  );

  app.post(
    '/api/signing/:token/auth/send',
    {
      onRequest: limited,
      schema: {
        operationId: 'sendSigningCode',
        summary: 'E-mail a code that opens the link (auth email_otp)',
        description:
          'E-mails a new 6-digit code to the signee, valid 10 minutes and once; it replaces any earlier code. At most one every 30 seconds and 5 an hour per link (429 rate_limited with Retry-After), none while the link is locked (429 signee_auth_locked). A link whose auth is not email_otp answers 409.',
        tags,
        security,
        params: tokenParams,
        response: {
          202: sendResponse,
          ...errorResponses(404, 409, 410, 429, 'signee_auth_locked'),
        },
      },
    },
    async (request, reply) => {
      const link = await resolveAuthLink(deps.db, request.params.token);
      return reply.code(202).send(await sendCode(d, { link }));
    },
  );
}
