import { loadBrand } from '../tenants/branding.js';
import { verify } from '@node-rs/argon2';
import { createHmac, hkdfSync, randomInt, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/ids.js';
import type { Language } from '../../i18n/index.js';
import { recordAudit, type RequestOrigin } from '../documents/audit.repo.js';
import { queueEmail } from '../mail/mail.service.js';
import { renderVerificationCode } from '../mail/templates/verification-code.js';
import * as repo from './signee-auth.repo.js';

/** What verification needs. */
export type SigneeAuthDeps = {
  db: Db;
  config: Pick<Config, 'secretKey' | 'publicUrl'>;
  wakeJobs: () => void;
};

/** Wrong codes that lock a link, counted over FAILURE_WINDOW_MS from the first. */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
/** How long a link stays locked after MAX_FAILURES wrong codes. */
export const LOCK_MS = 15 * 60_000;
/** How long an e-mailed code works. */
export const OTP_TTL_MS = 10 * 60_000;
/** E-mailed codes: at most one per OTP_RESEND_MS, and OTP_SENDS_PER_HOUR an hour, per link. */
export const OTP_RESEND_MS = 30_000;
export const OTP_SENDS_PER_HOUR = 5;

const HOUR_MS = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const ms = (at: string | null) => (at === null ? null : Date.parse(at));

// An e-mailed code is kept as an HMAC under a key derived from SECRET_KEY: six digits hash to
// one of only a million values, so an unkeyed hash would give the code away to whoever reads it.
let otpKey: { secret: string; key: Buffer } | null = null;
function otpHash(secretKey: string, signeeId: string, code: string): Buffer {
  if (otpKey?.secret !== secretKey) {
    const key = Buffer.from(
      hkdfSync('sha256', secretKey, 'signet', 'signee-otp/hmac-sha256/v1', 32),
    );
    otpKey = { secret: secretKey, key };
  }
  return createHmac('sha256', otpKey.key).update(`${signeeId}:${code}`).digest();
}

/**
 * The link of an auth call: 404 when unknown, 410 once its document is closed (without saying
 * how it ended: that is the document's, shown only to a verified signee).
 */
export async function resolveAuthLink(
  db: Db,
  token: string,
): Promise<repo.LinkAuth & { documentName: string }> {
  const link = await repo.findLinkAuth(db.kysely, hashSecret(token));
  if (!link) throw new AppError('not_found', 'This signing link does not exist.');
  if (!link.documentOpen || link.expired) {
    throw new AppError('link_expired', 'This signing link is no longer valid.', {
      extensions: { language: link.language },
    });
  }
  return link;
}

/** The 429 of a locked link, with when to come back. */
export function lockedError(lockedUntil: number, now: number, method: string): AppError {
  const seconds = Math.max(1, Math.ceil((lockedUntil - now) / 1000));
  return new AppError(
    'signee_auth_locked',
    `Too many wrong codes: this link is locked until ${iso(lockedUntil)}.`,
    { headers: { 'retry-after': String(seconds) }, extensions: { method } },
  );
}

function audit(
  link: repo.LinkAuth,
  origin: RequestOrigin,
  action: 'auth succeeded' | 'auth failed' | 'auth locked',
  details: Record<string, unknown>,
) {
  return {
    documentId: link.documentId,
    tenantId: link.tenantId,
    action,
    actor: `signee:${link.signeeId}`,
    signeeId: link.signeeId,
    origin,
    details,
  };
}

/**
 * Checks a code against the link's access code or e-mailed code. The attempt is counted
 * before its check, in its own transaction, so attempts sent at once cannot pass the limit
 * between them; a right code clears the count, the fifth wrong one locks the link for
 * LOCK_MS. Every attempt is audited with its method, never its code.
 */
export async function verifyCode(
  deps: SigneeAuthDeps,
  input: { link: repo.LinkAuth; code: string; origin: RequestOrigin },
): Promise<{ method: 'access_code' | 'email_otp' }> {
  const { link } = input;
  if (link.auth === 'none') {
    throw new AppError('invalid_status', 'This signing link asks for no code.');
  }
  const method = link.auth;
  const now = Date.now();
  const state = await deps.db.kysely.transaction().execute(async (trx) => {
    const row = await repo.lockAuthState(trx, deps.db.engine, link.signeeId);
    const lockedUntil = ms(row.locked_until);
    if (lockedUntil !== null && lockedUntil > now) throw lockedError(lockedUntil, now, method);
    const since = ms(row.failures_since);
    const fresh = since === null || now - since > FAILURE_WINDOW_MS || lockedUntil !== null;
    const failures = fresh ? 0 : row.failures;
    // The rest are attempts still being checked: each will be a failure or clear the count.
    if (failures >= MAX_FAILURES) {
      throw new AppError('rate_limited', 'Other attempts on this link are being checked.', {
        headers: { 'retry-after': '1' },
      });
    }
    await repo.updateAuthState(trx, link.signeeId, {
      failures: failures + 1,
      failures_since: fresh ? iso(now) : row.failures_since,
      locked_until: null,
    });
    return row;
  });
  const right =
    method === 'access_code'
      ? link.accessCodeHash !== null && (await verify(link.accessCodeHash, input.code))
      : checkOtp(deps.config.secretKey, link.signeeId, input.code.replace(/\s+/g, ''), state, now);
  return deps.db.kysely
    .transaction()
    .execute(async (trx) => {
      const row = await repo.lockAuthState(trx, deps.db.engine, link.signeeId);
      if (right) {
        await repo.updateAuthState(trx, link.signeeId, {
          failures: 0,
          failures_since: null,
          // An e-mailed code opens the link once.
          ...(method === 'email_otp' ? { otp_hash: null, otp_expires_at: null } : {}),
        });
        await recordAudit(trx, audit(link, input.origin, 'auth succeeded', { method }));
        return { method };
      }
      const remaining = Math.max(0, MAX_FAILURES - row.failures);
      await recordAudit(
        trx,
        audit(link, input.origin, 'auth failed', { method, remainingAttempts: remaining }),
      );
      // A wrong code checked alongside may have locked it already: one lock, one entry.
      if (remaining === 0 && !((ms(row.locked_until) ?? 0) > now)) {
        const until = now + LOCK_MS;
        await repo.updateAuthState(trx, link.signeeId, { locked_until: iso(until) });
        await recordAudit(
          trx,
          audit(link, input.origin, 'auth locked', { method, lockedUntil: iso(until) }),
        );
      }
      return { method, remaining };
    })
    .then((result) => {
      if ('remaining' in result) {
        throw new AppError(
          'signee_auth_invalid',
          result.remaining === 0
            ? `Wrong code. The link is now locked for ${LOCK_MS / 60_000} minutes.`
            : method === 'email_otp'
              ? 'The code is wrong or has expired.'
              : 'The access code is wrong.',
          { extensions: { method, remainingAttempts: result.remaining } },
        );
      }
      return result;
    });
}

// An e-mailed code: six digits, the one sent last, not expired, compared as HMACs in constant time.
function checkOtp(
  secretKey: string,
  signeeId: string,
  code: string,
  state: repo.AuthStateRow,
  now: number,
): boolean {
  const expires = ms(state.otp_expires_at);
  if (!state.otp_hash || expires === null || expires <= now || !/^\d{6}$/.test(code)) return false;
  const stored = Buffer.from(state.otp_hash, 'hex');
  const given = otpHash(secretKey, signeeId, code);
  return stored.length === given.length && timingSafeEqual(stored, given);
}

/**
 * E-mails a new 6-digit code (auth `email_otp`) through the outbox, replacing any earlier one,
 * valid OTP_TTL_MS. At most one every OTP_RESEND_MS and OTP_SENDS_PER_HOUR an hour per link
 * (429 rate_limited with Retry-After); none while the link is locked.
 */
export async function sendCode(
  deps: SigneeAuthDeps,
  input: { link: repo.LinkAuth & { documentName: string } },
): Promise<{ expiresAt: string; resendAfter: string }> {
  const { link } = input;
  if (link.auth !== 'email_otp') {
    throw new AppError('invalid_status', 'This signing link does not use e-mailed codes.');
  }
  const now = Date.now();
  const result = await deps.db.kysely.transaction().execute(async (trx) => {
    const row = await repo.lockAuthState(trx, deps.db.engine, link.signeeId);
    const lockedUntil = ms(row.locked_until);
    if (lockedUntil !== null && lockedUntil > now) throw lockedError(lockedUntil, now, link.auth);
    const last = ms(row.otp_sent_at);
    if (last !== null && now - last < OTP_RESEND_MS) throw retryLater(last + OTP_RESEND_MS - now);
    const since = ms(row.otp_sends_since);
    const fresh = since === null || now - since >= HOUR_MS;
    const sends = fresh ? 0 : row.otp_sends;
    if (sends >= OTP_SENDS_PER_HOUR) throw retryLater(since! + HOUR_MS - now);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await repo.updateAuthState(trx, link.signeeId, {
      otp_hash: otpHash(deps.config.secretKey, link.signeeId, code).toString('hex'),
      otp_expires_at: iso(now + OTP_TTL_MS),
      otp_sent_at: iso(now),
      otp_sends: sends + 1,
      otp_sends_since: fresh ? iso(now) : row.otp_sends_since,
    });
    await queueEmail(trx, {
      to: link.email,
      tenantId: link.tenantId,
      // Audited by the outbox with its outcome, as every e-mail to a signee is.
      audit: { documentId: link.documentId, signeeId: link.signeeId, kind: 'verification' },
      ...renderVerificationCode({
        language: link.language as Language,
        signeeName: link.name,
        documentName: link.documentName,
        code,
        brand: await loadBrand(trx, link.tenantId, deps.config.publicUrl),
      }),
    });
    return { expiresAt: iso(now + OTP_TTL_MS), resendAfter: iso(now + OTP_RESEND_MS) };
  });
  deps.wakeJobs();
  return result;
}

function retryLater(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError('rate_limited', `A code was sent recently; ask again in ${seconds} s.`, {
    headers: { 'retry-after': String(seconds) },
  });
}
