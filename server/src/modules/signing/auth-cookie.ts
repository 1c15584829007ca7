import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long a verification holds in the browser that made it. */
export const VERIFIED_FOR_SECONDS = 3600;

/** Where the cookie is sent: the signing API only, never the pages or the rest of the API. */
const COOKIE_PATH = '/api/signing/';

// One key per SECRET_KEY, derived with its own HKDF `info` so it equals no other key of ours.
const keys = new Map<string, Buffer>();
function cookieKey(secretKey: string): Buffer {
  let key = keys.get(secretKey);
  if (!key) {
    key = Buffer.from(
      hkdfSync('sha256', secretKey, 'signet', 'signee-auth-cookie/hmac-sha256/v1', 32),
    );
    keys.set(secretKey, key);
  }
  return key;
}

/**
 * The cookie of one signee's link: named after the signee, so the links of several signees
 * (two documents, or two people sharing a browser) each keep their own.
 */
export function authCookieName(signeeId: string): string {
  return `signet_verified_${signeeId.replaceAll('-', '')}`;
}

function mac(secretKey: string, signeeId: string, expires: number): Buffer {
  return createHmac('sha256', cookieKey(secretKey))
    .update(`signee-verified:${signeeId}:${expires}`)
    .digest();
}

/**
 * The cookie's value: its expiry (Unix seconds) and an HMAC binding it to the signee under
 * SECRET_KEY. Checking it needs no database read; a new SECRET_KEY ends every verification.
 */
export function mintAuthCookie(secretKey: string, signeeId: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + VERIFIED_FOR_SECONDS;
  return `${expires}.${mac(secretKey, signeeId, expires).toString('base64url')}`;
}

/** True when the value was minted for this signee under this key and has not expired. */
export function checkAuthCookie(
  secretKey: string,
  signeeId: string,
  value: string | undefined,
  now = Date.now(),
): boolean {
  if (!value) return false;
  const dot = value.indexOf('.');
  const expires = Number(value.slice(0, dot));
  const seconds = now / 1000;
  // Never longer than it is issued for, whatever the value says.
  if (
    !Number.isInteger(expires) ||
    expires <= seconds ||
    expires > seconds + VERIFIED_FOR_SECONDS
  ) {
    return false;
  }
  const given = Buffer.from(value.slice(dot + 1), 'base64url');
  const wanted = mac(secretKey, signeeId, expires);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** True when the request carries a valid verification of this signee's link. */
export function isVerified(request: FastifyRequest, secretKey: string, signeeId: string): boolean {
  return checkAuthCookie(secretKey, signeeId, request.cookies[authCookieName(signeeId)]);
}

/**
 * Sets the verification cookie: HttpOnly, Secure when the request came over https, SameSite=Lax
 * unless `sameSite` says otherwise (a framed page needs `none`, which browsers take only with
 * Secure), for an hour.
 */
export function setAuthCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  input: { secretKey: string; signeeId: string; sameSite?: 'lax' | 'strict' | 'none' },
): { expiresAt: string } {
  const now = Date.now();
  const sameSite = input.sameSite ?? 'lax';
  reply.setCookie(
    authCookieName(input.signeeId),
    mintAuthCookie(input.secretKey, input.signeeId, now),
    {
      path: COOKIE_PATH,
      httpOnly: true,
      secure: sameSite === 'none' || request.protocol === 'https',
      sameSite,
      maxAge: VERIFIED_FOR_SECONDS,
    },
  );
  return { expiresAt: new Date(now + VERIFIED_FOR_SECONDS * 1000).toISOString() };
}
