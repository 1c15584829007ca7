import { hash } from '@node-rs/argon2';
import type { DbOrTrx } from '../../db/handle.js';
import type { AccountEventType } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret, newSecret, nowIso } from '../../lib/ids.js';
import { queueEmail } from '../mail/mail.service.js';
import { takeRecipientSlot } from '../mail/recipient-limits.js';
import { renderPasswordReset } from '../mail/templates/password-reset.js';
import * as accountsRepo from './accounts.repo.js';
import { queueVerificationEmail, type AccountDeps } from './accounts.service.js';
import { loginDelayMs, type LoginThrottle, type ThrottleRule } from './login-throttle.js';
import * as repo from './recovery.repo.js';

/** How long a password reset link works. */
export const PASSWORD_RESET_TTL_MS = 3600_000;

/**
 * How recovery e-mails of one kind (verification resent, password reset) to one account are
 * spaced, counted over the last RECOVERY_EMAIL_WINDOW_MS: the first goes at once, the next
 * after 1 minute, then 2, 4, … up to an hour between two, the login throttle's growth. Requests
 * in between are answered alike and send nothing. No daily cap: every e-mail that goes out
 * carries a working link, so whoever makes the requests, the owner is never left without one.
 */
export const RECOVERY_EMAIL_SPACING: ThrottleRule = {
  free: 1,
  baseMs: 60_000,
  capMs: 3600_000,
};

/** The window RECOVERY_EMAIL_SPACING counts e-mails in. */
export const RECOVERY_EMAIL_WINDOW_MS = 24 * 3600_000;

/** Who asked, for the account's audit events. */
type Requester = { ip: string };

/** True when the spacing rule lets another e-mail of this kind go to the user now. */
async function mayEmail(trx: DbOrTrx, userId: string, type: AccountEventType, now: string) {
  const since = new Date(Date.parse(now) - RECOVERY_EMAIL_WINDOW_MS).toISOString();
  const { count, lastAt } = await repo.recentAccountEvents(trx, { userId, type, since });
  if (!lastAt) return true;
  return Date.parse(lastAt) + loginDelayMs(RECOVERY_EMAIL_SPACING, count) <= Date.parse(now);
}

/**
 * Queues a fresh verification e-mail when the address belongs to an unverified account and the
 * spacing rule allows one. Whatever the case, the caller answers alike: nothing here is
 * returned, so the route cannot tell anyone which addresses have accounts.
 */
export async function resendVerification(
  deps: AccountDeps,
  input: Requester & { email: string },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  await deps.db.kysely.transaction().execute(async (trx) => {
    const user = await repo.lockUserByEmail(trx, deps.db.engine, email);
    if (!user || user.email_verified_at !== null) return;
    const now = nowIso();
    if (!(await mayEmail(trx, user.id, 'verification_resent', now))) return;
    // The address's budget of account e-mails, shared with sign-up (RECIPIENT_RULES.account).
    if (!(await takeRecipientSlot(trx, { kind: 'account', address: email })).ok) return;
    await queueVerificationEmail(trx, deps, user);
    await repo.insertAccountEvent(trx, {
      user_id: user.id,
      type: 'verification_resent',
      ip: input.ip,
      created_at: now,
    });
  });
}

/**
 * E-mails a single-use link to choose a new password, valid PASSWORD_RESET_TTL_MS, when the
 * address has an account and the spacing rule allows it; the user's older unused links stop
 * working. Answers nothing, like resendVerification.
 */
export async function requestPasswordReset(
  deps: AccountDeps,
  input: Requester & { email: string },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  await deps.db.kysely.transaction().execute(async (trx) => {
    const user = await repo.lockUserByEmail(trx, deps.db.engine, email);
    if (!user) return;
    const now = nowIso();
    if (!(await mayEmail(trx, user.id, 'password_reset_requested', now))) return;
    await repo.revokePasswordResets(trx, user.id, now);
    const token = newSecret('pr_');
    await repo.insertPasswordReset(trx, {
      token_hash: hashSecret(token),
      user_id: user.id,
      created_at: now,
      expires_at: new Date(Date.parse(now) + PASSWORD_RESET_TTL_MS).toISOString(),
    });
    const link = `${deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    await queueEmail(trx, {
      to: user.email,
      ...renderPasswordReset({
        // An unverified account's name is whatever the person who signed up typed: not greeted.
        name: user.email_verified_at !== null ? user.name : null,
        link,
        validMinutes: PASSWORD_RESET_TTL_MS / 60_000,
      }),
    });
    await repo.insertAccountEvent(trx, {
      user_id: user.id,
      type: 'password_reset_requested',
      ip: input.ip,
      created_at: now,
    });
  });
}

/**
 * Sets a new password with a reset token: the token is spent, every session of the user ends
 * (API keys stay: they belong to integrations, and the owner revokes them one by one), and the
 * login slowdown on the account and this client is cleared, as a successful login would.
 */
export async function resetPassword(
  deps: AccountDeps,
  input: Requester & { token: string; password: string },
  throttle: LoginThrottle,
) {
  const tokenHash = hashSecret(input.token);
  const invalid = () =>
    new AppError(
      'invalid_token',
      'This password reset link is invalid, expired or already used; ask for a new one.',
    );
  // Checked before the (slow) password hashing, so unknown tokens cost nothing.
  if (!(await repo.findLivePasswordReset(deps.db.kysely, tokenHash, nowIso()))) throw invalid();
  const passwordHash = await hash(input.password);
  const user = await deps.db.kysely.transaction().execute(async (trx) => {
    const now = nowIso();
    // Spent here, atomically: of two requests with one token, only one gets past this.
    const userId = await repo.consumePasswordReset(trx, tokenHash, now);
    if (!userId) throw invalid();
    await accountsRepo.updatePasswordHash(trx, userId, passwordHash, now);
    await repo.revokePasswordResets(trx, userId, now);
    await accountsRepo.deleteUserSessions(trx, userId);
    await repo.insertAccountEvent(trx, {
      user_id: userId,
      type: 'password_reset',
      ip: input.ip,
      created_at: now,
    });
    const row = await accountsRepo.findUserById(trx, userId);
    if (!row) throw invalid();
    return row;
  });
  throttle.succeeded(user.email, input.ip);
  return user;
}
