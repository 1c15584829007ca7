import type { FastifyReply, FastifyRequest } from 'fastify';
import { hkdfSync } from 'node:crypto';
import type { Config } from '../config.js';
import { hashSecret, nowIso } from '../lib/ids.js';
import { AppError } from '../lib/errors.js';
import { createRateLimiter } from './rate-limit.js';

/** Who is calling: a user, through an API key or a browser session. */
export type Principal = {
  userId: string;
  email: string;
  name: string;
  emailVerified: boolean;
  via: 'api_key' | 'session';
  apiKeyId: string | null;
};

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Name of the HttpOnly session cookie. */
export const SESSION_COOKIE = 'signet_session';

/**
 * The key @fastify/cookie signs the session cookie with: derived from SECRET_KEY with its own
 * HKDF `info`, so it equals no other key of ours. A cookie carries the random session token
 * (stored hashed) plus this signature: a new SECRET_KEY ends every session, and a cookie that
 * was not made by this service is refused before any database read.
 */
export function sessionCookieSecret(secretKey: string): string {
  return Buffer.from(
    hkdfSync('sha256', secretKey, 'signet', 'session-cookie/hmac-sha256/v1', 32),
  ).toString('base64url');
}

/** The session token of a request's signed cookie; null when absent or not signed by us. */
export function sessionTokenOf(request: FastifyRequest): string | null {
  const cookie = request.cookies[SESSION_COOKIE];
  if (!cookie) return null;
  const unsigned = request.unsignCookie(cookie);
  return unsigned.valid ? unsigned.value : null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

// lastUsedAt is for humans ("used 3 minutes ago"): writing it at most once a minute per key
// keeps a write off the hot path of every request.
const TOUCH_INTERVAL_MS = 60_000;

/** The user an API key or session belongs to, as authentication reads it. */
export type AuthUser = {
  id: string;
  email: string;
  name: string;
  email_verified_at: string | null;
};

/**
 * The lookups authentication needs, injected by the app from the accounts repo so that http/
 * depends on no domain module.
 */
export type UserLookups = {
  /** A key by its hash, with its owner. */
  findApiKey(keyHash: string): Promise<
    | (AuthUser & {
        keyId: string;
        environment: string;
        revoked_at: string | null;
        last_used_at: string | null;
      })
    | undefined
  >;
  /** The user of an unexpired session token hash. */
  findSessionUser(tokenHash: string, now: string): Promise<AuthUser | undefined>;
  /** Records a key's last use. */
  touchApiKey(keyId: string, now: string): Promise<void>;
};

// A key's last use as a number, parsed once per cached row: on SQLite the same frozen row
// answers every request until something is written (db/prepared.ts), and parsing the ISO time
// was a tenth of authenticating. A fresh row (PostgreSQL) is parsed, not remembered.
const lastUses = new WeakMap<object, number>();
function lastUseOf(row: { last_used_at: string | null }): number {
  if (!Object.isFrozen(row)) return Date.parse(row.last_used_at!);
  let time = lastUses.get(row);
  if (time === undefined) lastUses.set(row, (time = Date.parse(row.last_used_at!)));
  return time;
}

/** Builds the route onRequest hooks that authenticate requests. */
export function createAuth(deps: {
  users: UserLookups;
  config: Config;
  rateLimit: (key: string, reply: FastifyReply) => void;
}) {
  const { users, config } = deps;
  const ownPrefix = config.env === 'production' ? 'sk_live_' : 'sk_test_';
  const otherPrefix = config.env === 'production' ? 'sk_test_' : 'sk_live_';
  const publicOrigin = new URL(config.publicUrl).origin;
  // Session requests have a bucket per user (all their sessions together), as large as a key's:
  // a stolen or scripted session cannot make unlimited requests either.
  const sessionRateLimit = createRateLimiter({
    perSecond: config.rateLimitPerSecond,
    burst: config.rateLimitBurst,
    subject: 'this account',
  });

  async function fromApiKey(key: string, reply: FastifyReply): Promise<Principal> {
    if (key.startsWith(otherPrefix)) {
      throw new AppError(
        'wrong_environment',
        `This is a ${otherPrefix === 'sk_live_' ? 'production' : 'sandbox'} key; this host is ${config.env}.`,
      );
    }
    if (!key.startsWith(ownPrefix)) throw new AppError('invalid_api_key');
    const row = await users.findApiKey(hashSecret(key));
    if (!row) throw new AppError('invalid_api_key');
    if (row.revoked_at) throw new AppError('api_key_revoked', 'This API key has been revoked.');
    if (row.environment !== config.env) throw new AppError('wrong_environment');
    deps.rateLimit(row.keyId, reply);
    // The time as a number: formatting it as ISO costs more than the rest of this check.
    const now = Date.now();
    if (!row.last_used_at || now - lastUseOf(row) > TOUCH_INTERVAL_MS) {
      await users.touchApiKey(row.keyId, new Date(now).toISOString());
    }
    return {
      userId: row.id,
      email: row.email,
      name: row.name,
      emailVerified: row.email_verified_at !== null,
      via: 'api_key',
      apiKeyId: row.keyId,
    };
  }

  /**
   * Cookies ride along on cross-site requests, so a session request that changes state must
   * show it comes from our own pages: an `Origin` equal to PUBLIC_URL's, or, from a browser
   * that sends none, `Sec-Fetch-Site: same-origin`. A request with neither is refused too: every
   * browser sends one of them, and a non-browser client has an API key for this.
   */
  function assertSameOrigin(request: FastifyRequest) {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site'];
    const ok = origin !== undefined ? origin === publicOrigin : site === 'same-origin';
    if (!ok) {
      throw new AppError(
        'cross_origin_rejected',
        'Session requests that change state must come from this service’s own pages.',
      );
    }
  }

  /** An onRequest hook for routes that act on the session cookie without requiring a user. */
  async function requireSameOrigin(request: FastifyRequest) {
    if (request.cookies[SESSION_COOKIE]) assertSameOrigin(request);
  }

  async function fromSession(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
  ): Promise<Principal> {
    assertSameOrigin(request);
    const user = await users.findSessionUser(hashSecret(token), nowIso());
    if (!user) throw new AppError('unauthenticated', 'Your session has expired; log in again.');
    sessionRateLimit(user.id, reply);
    return {
      userId: user.id,
      email: user.email,
      name: user.name,
      emailVerified: user.email_verified_at !== null,
      via: 'session',
      apiKeyId: null,
    };
  }

  /** Accepts an X-Api-Key or a session cookie. */
  async function requireUser(request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers['x-api-key'];
    if (typeof key === 'string' && key.length > 0) {
      request.principal = await fromApiKey(key, reply);
      return;
    }
    if (request.cookies[SESSION_COOKIE]) {
      const token = sessionTokenOf(request);
      if (!token) {
        throw new AppError('unauthenticated', 'Your session has expired; log in again.');
      }
      request.principal = await fromSession(request, reply, token);
      return;
    }
    throw new AppError('unauthenticated', 'Send your API key in the X-Api-Key header.');
  }

  /** Accepts only a browser session (API keys cannot mint keys). */
  async function requireSession(request: FastifyRequest, reply: FastifyReply) {
    if (request.headers['x-api-key']) {
      throw new AppError('session_required', 'API keys are managed from a logged-in session.');
    }
    await requireUser(request, reply);
  }

  /** Like requireUser, and the user's e-mail must be verified (document endpoints). */
  async function requireVerifiedUser(request: FastifyRequest, reply: FastifyReply) {
    await requireUser(request, reply);
    if (!request.principal?.emailVerified) {
      throw new AppError(
        'email_not_verified',
        'Verify your e-mail address (see the link we sent) before using document endpoints.',
      );
    }
  }

  return { requireUser, requireSession, requireVerifiedUser, requireSameOrigin };
}

/** The authenticated principal; routes behind an auth hook always have one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('unauthenticated');
  return request.principal;
}

/** The auth onRequest hooks, passed to every module's routes. */
export type Auth = ReturnType<typeof createAuth>;
