import { z } from 'zod';
import { SESSION_COOKIE, principalOf, sessionTokenOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { App, AppDeps } from '../../http/types.js';
import { escapeHtml } from '../mail/templates/layout.js';
import { findUserById } from './accounts.repo.js';
import {
  apiKeySchema,
  createApiKeyBody,
  loginBody,
  signupBody,
  userSchema,
  verifyEmailBody,
} from './accounts.schemas.js';
import * as accounts from './accounts.service.js';
import { createLoginThrottle } from './login-throttle.js';
import { registerRecoveryRoutes } from './recovery.routes.js';
import { addressKeyOf, networkKeyOf, SIGNUP_LIMITS } from './signup-limits.js';
import { createSignupNotices } from './signup-notices.js';

/** Sign-up, e-mail verification, sessions, API keys, and account recovery. */
export function registerAccountRoutes(app: App, deps: AppDeps) {
  const { auth } = deps;
  const d = { db: deps.db, publicUrl: deps.config.publicUrl, env: deps.config.env };
  const secureCookie = deps.config.publicUrl.startsWith('https:');
  const loginThrottle = createLoginThrottle();
  const signupNotices = createSignupNotices();
  // Sign-up per client address and per network (SIGNUP_LIMITS): counted before the password is
  // hashed and whatever address is signed up, so the 429 says nothing about accounts. In process
  // memory, like the other per-address limits: several processes each enforce their own share.
  const signupPerClient = createRateLimiter({
    ...SIGNUP_LIMITS.client,
    subject: 'this client address',
  });
  const signupPerNetwork = createRateLimiter({ ...SIGNUP_LIMITS.network, subject: 'this network' });
  const tags = ['accounts'];
  // API-key management takes a session only: an API key cannot mint, list or revoke keys.
  const sessionOnly = [{ session: [] }];

  app.post(
    '/api/auth/signup',
    {
      schema: {
        operationId: 'signUp',
        summary: 'Create an account and e-mail its verification link',
        description:
          'A new account gets its first tenant, made as POST /api/tenants makes one, with the user as its owner: named tenantName, else "<name>\'s workspace". The same 201 answer, shaped alike, whether or not the address already has an account, so sign-up cannot be used to find accounts: an existing address gets a notice e-mail instead (at most one per 15 minutes) and nothing is created. Each client address may sign up 5 times at once, then once per 5 minutes, and each network (IPv4 /24, IPv6 /64) 20 times, then once a minute (429 rate_limited with Retry-After). One address gets at most 3 account e-mails an hour and 10 a day (verification links and notices together); past that the answer is the same and no e-mail goes.',
        tags,
        security: [],
        body: signupBody,
        response: { 201: z.object({ user: userSchema }), ...errorResponses(400, 422, 429) },
      },
    },
    async (request, reply) => {
      // The client's own budget first: one busy client does not spend its neighbours'.
      signupPerClient(addressKeyOf(request.ip), reply);
      signupPerNetwork(networkKeyOf(request.ip), reply);
      // The same 201 whether or not the address already has an account (see signUp).
      const user = await accounts.signUp(d, request.body, signupNotices);
      deps.jobs.wake();
      return reply.code(201).send({ user: accounts.presentUser(user) });
    },
  );

  app.post(
    '/api/auth/verify-email',
    {
      schema: {
        operationId: 'verifyEmail',
        summary: 'Verify an e-mail address with the token from its link',
        description:
          'The same as opening the e-mailed link (GET /verify-email?token=…). Tokens last 48 hours and work once: an unknown, expired or used one is 400 invalid_token.',
        tags,
        security: [],
        body: verifyEmailBody,
        response: {
          200: z.object({ user: userSchema }),
          ...errorResponses(400, 'invalid_token', 422),
        },
      },
    },
    async (request) => ({
      user: accounts.presentUser(await accounts.verifyEmail(d, request.body.token)),
    }),
  );

  // The link in the verification e-mail: opening it verifies the address.
  app.get(
    '/verify-email',
    { schema: { hide: true, querystring: z.object({ token: z.string().default('') }) } },
    async (request, reply) => {
      let message: string;
      try {
        const user = await accounts.verifyEmail(d, request.query.token);
        message = `Thank you, ${escapeHtml(user.name)}: ${escapeHtml(user.email)} is verified. You can close this page or <a href="/">open Signet</a>.`;
        reply.code(200);
      } catch {
        message = 'This verification link is invalid, expired or already used.';
        reply.code(400);
      }
      return reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>E-mail verification - Signet</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem"><h1>E-mail verification</h1><p>${message}</p></body></html>`,
        );
    },
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        operationId: 'logIn',
        summary: 'Log in and receive the session cookie',
        description:
          'A wrong password and an unknown address are both 401 invalid_credentials. Failed logins make the next attempt wait, per client address and account (429 rate_limited with Retry-After, the password unchecked).',
        tags,
        security: [],
        body: loginBody,
        response: {
          200: z.object({ user: userSchema }),
          ...errorResponses(400, 'invalid_credentials', 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { user, token, maxAgeSeconds } = await accounts.logIn(
        d,
        { ...request.body, ip: request.ip },
        loginThrottle,
      );
      reply.setCookie(SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookie,
        path: '/',
        maxAge: maxAgeSeconds,
        signed: true,
      });
      return { user: accounts.presentUser(user) };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      onRequest: auth.requireSameOrigin,
      schema: {
        operationId: 'logOut',
        summary: "End the cookie's session and clear the cookie",
        description:
          'Answers 204 with or without a session. With a session cookie, the request must come from the service’s own origin (403 cross_origin_rejected).',
        tags,
        // The session cookie if there is one; without it the answer is the same 204.
        security: [{ session: [] }, {}],
        response: { 204: z.null(), ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const token = sessionTokenOf(request);
      if (token) await accounts.logOut(d, token);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/auth/me',
    {
      onRequest: auth.requireUser,
      schema: {
        operationId: 'getCurrentUser',
        summary: 'The user behind the API key or session',
        tags,
        response: { 200: z.object({ user: userSchema }), ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      const user = await findUserById(deps.db.kysely, principalOf(request).userId);
      if (!user) throw new Error('authenticated user vanished');
      return { user: accounts.presentUser(user) };
    },
  );

  app.post(
    '/api/account/api-keys',
    {
      onRequest: auth.requireSession,
      schema: {
        operationId: 'createApiKey',
        summary: 'Create an API key; its secret is shown once',
        description:
          'Session only: a request with X-Api-Key is 401 session_required. The secret is in this answer only; the service keeps its hash. A user holds at most 50 unrevoked keys: past that, 409 api_key_limit_reached.',
        tags,
        security: sessionOnly,
        body: createApiKeyBody,
        response: {
          201: z.object({ apiKey: apiKeySchema, secret: z.string() }),
          ...errorResponses(
            400,
            'session_required',
            'unauthenticated',
            403,
            'api_key_limit_reached',
            422,
          ),
        },
      },
    },
    async (request, reply) => {
      const result = await accounts.createApiKey(d, {
        userId: principalOf(request).userId,
        name: request.body.name,
        ip: request.ip,
      });
      return reply.code(201).send(result);
    },
  );

  app.get(
    '/api/account/api-keys',
    {
      onRequest: auth.requireSession,
      schema: {
        operationId: 'listApiKeys',
        summary: "The user's live API keys, newest first (never their secrets)",
        tags,
        security: sessionOnly,
        response: {
          200: z.object({ apiKeys: z.array(apiKeySchema) }),
          ...errorResponses('session_required', 'unauthenticated'),
        },
      },
    },
    async (request) => ({ apiKeys: await accounts.listApiKeys(d, principalOf(request).userId) }),
  );

  app.delete(
    '/api/account/api-keys/:keyId',
    {
      onRequest: auth.requireSession,
      schema: {
        operationId: 'revokeApiKey',
        summary: 'Revoke one of your API keys at once',
        description: 'Another user’s key, or one already revoked, is 404.',
        tags,
        security: sessionOnly,
        params: z.object({ keyId: z.uuid() }),
        response: {
          204: z.null(),
          ...errorResponses('session_required', 'unauthenticated', 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      await accounts.revokeApiKey(d, {
        userId: principalOf(request).userId,
        keyId: request.params.keyId,
        ip: request.ip,
      });
      return reply.code(204).send(null);
    },
  );

  registerRecoveryRoutes(app, deps, loginThrottle);
}
