import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/ids.js';
import { isVerified } from './auth-cookie.js';
import type { SigneeAuthMethod } from './signee-auth-input.js';
import { findLinkAuth } from './signee-auth.repo.js';

type LinkMethod = { signeeId: string; auth: SigneeAuthMethod };

// Links remembered at most; the oldest goes first.
const MAX_REMEMBERED = 10_000;

/**
 * The check in front of every signing API call but the verification's own: a link whose signee
 * has `auth` other than `none` answers 401 `signee_auth_required` (with the method and the
 * signee's language, nothing of the document) until the request carries the link's
 * verification cookie (auth-cookie.ts: an HMAC, checked without a database read).
 *
 * A link's method is remembered by its token's hash in this process. That is safe because it
 * cannot change once the link exists: links are issued at sending, and signees (their `auth`
 * with them) change only in drafts. So a link without verification costs a map lookup, not a
 * query, after its first request: verification adds no work to the signing of such links.
 */
export function createAuthGate(deps: { db: Db; secretKey: string }) {
  const methods = new Map<string, LinkMethod>();

  async function methodOf(tokenHash: string): Promise<LinkMethod | undefined> {
    const known = methods.get(tokenHash);
    if (known) return known;
    const row = await deps.db.kysely
      .selectFrom('signees')
      .select(['id', 'auth'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    // An unknown link is left to its route, which answers 404 as before.
    if (!row) return undefined;
    if (methods.size >= MAX_REMEMBERED) methods.delete(methods.keys().next().value!);
    const found = { signeeId: row.id, auth: row.auth };
    methods.set(tokenHash, found);
    return found;
  }

  /** An onRequest hook for routes under /api/signing/{token}. */
  return async function requireVerification(request: FastifyRequest): Promise<void> {
    const token = (request.params as { token?: unknown }).token;
    if (typeof token !== 'string') return;
    const tokenHash = hashSecret(token);
    const link = await methodOf(tokenHash);
    if (!link || link.auth === 'none') return;
    if (isVerified(request, deps.secretKey, link.signeeId)) return;
    const language = (await findLinkAuth(deps.db.kysely, tokenHash))?.language;
    throw new AppError(
      'signee_auth_required',
      link.auth === 'email_otp'
        ? 'This link opens with a code e-mailed to the signee: POST /api/signing/{token}/auth/send, then POST /api/signing/{token}/auth {code}.'
        : 'This link opens with the access code the sender gave the signee: POST /api/signing/{token}/auth {code}.',
      { extensions: { method: link.auth, language } },
    );
  };
}
