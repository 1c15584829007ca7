import { z } from 'zod';
import { errorResponses } from '../../http/problem-schema.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { App, AppDeps } from '../../http/types.js';
import { sendWebPage } from '../../http/web-assets.js';
import {
  recoveryAcceptedSchema,
  recoveryRequestBody,
  resetPasswordBody,
  userSchema,
} from './accounts.schemas.js';
import { presentUser } from './accounts.service.js';
import { clientKeyOf, type LoginThrottle } from './login-throttle.js';
import * as recovery from './recovery.service.js';

/** What a resend answers, whatever the address. */
export const RESEND_ACCEPTED =
  'If this address belongs to an account that is not verified yet, a new verification e-mail is on its way.';

/** What a password reset request answers, whatever the address. */
export const RESET_ACCEPTED =
  'If this address belongs to an account, an e-mail with a link to choose a new password is on its way.';

/** Resending the verification e-mail and resetting a forgotten password by e-mail. */
export function registerRecoveryRoutes(app: App, deps: AppDeps, loginThrottle: LoginThrottle) {
  const d = { db: deps.db, publicUrl: deps.config.publicUrl, env: deps.config.env };
  const tags = ['accounts'];
  // One budget per client address for both e-mail-sending requests: 10 at once, then one per
  // 6 minutes. Counted whatever the address asked about, so its 429 reveals no account.
  const requestLimit = createRateLimiter({
    perSecond: 1 / 360,
    burst: 10,
    subject: 'this address',
  });

  app.post(
    '/api/auth/resend-verification',
    {
      schema: {
        operationId: 'resendVerification',
        summary: 'Send the e-mail verification link again',
        description:
          'The same 202 answer whether or not the address has an account, and whether or not it is verified, so it cannot be used to find accounts. An unverified account gets a new link (earlier ones keep working until they expire); e-mails to one address are spaced out (the first at once, then 1, 2, 4 … up to 60 minutes apart), and each client address may make 10 requests, then one per 6 minutes (429), shared with requestPasswordReset.',
        tags,
        security: [],
        body: recoveryRequestBody,
        response: { 202: recoveryAcceptedSchema, ...errorResponses(400, 422, 429) },
      },
    },
    async (request, reply) => {
      requestLimit(clientKeyOf(request.ip), reply);
      await recovery.resendVerification(d, { email: request.body.email, ip: request.ip });
      deps.jobs.wake();
      return reply.code(202).send({ message: RESEND_ACCEPTED });
    },
  );

  app.post(
    '/api/auth/password-reset',
    {
      schema: {
        operationId: 'requestPasswordReset',
        summary: 'E-mail a link to choose a new password',
        description:
          'The same 202 answer whether or not the address has an account. An account gets a link valid for 1 hour and usable once; asking again makes the earlier unused links stop working. E-mails to one address are spaced out like resendVerification, and the per-client limit (429) is shared with it.',
        tags,
        security: [],
        body: recoveryRequestBody,
        response: { 202: recoveryAcceptedSchema, ...errorResponses(400, 422, 429) },
      },
    },
    async (request, reply) => {
      requestLimit(clientKeyOf(request.ip), reply);
      await recovery.requestPasswordReset(d, { email: request.body.email, ip: request.ip });
      deps.jobs.wake();
      return reply.code(202).send({ message: RESET_ACCEPTED });
    },
  );

  app.post(
    '/api/auth/password-reset/confirm',
    {
      schema: {
        operationId: 'resetPassword',
        summary: 'Set a new password with the e-mailed reset token',
        description:
          "Spends the token and sets the password (the sign-up rule: 10 to 200 characters). Every session of the user ends; API keys keep working. An unknown, expired, used or replaced token is 400 invalid_token; a password that breaks the rule is 422 and leaves the token usable. Does not log in: the answer is the account's user.",
        tags,
        security: [],
        body: resetPasswordBody,
        response: {
          200: z.object({ user: userSchema }),
          ...errorResponses(400, 'invalid_token', 422),
        },
      },
    },
    async (request) => {
      const user = await recovery.resetPassword(
        d,
        { ...request.body, ip: request.ip },
        loginThrottle,
      );
      return { user: presentUser(user) };
    },
  );

  // The dashboard's pages for these flows: the link in the reset e-mail opens the second.
  const page = { schema: { hide: true } };
  app.get('/forgot-password', page, async (_request, reply) => sendWebPage(reply, 'index'));
  app.get('/reset-password', page, async (_request, reply) => sendWebPage(reply, 'index'));
}
