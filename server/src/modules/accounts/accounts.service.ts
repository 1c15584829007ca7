import { hash, verify } from '@node-rs/argon2';
import type { Db, DbOrTrx } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret, isoIn, newId, newSecret, nowIso } from '../../lib/ids.js';
import { queueEmail } from '../mail/mail.service.js';
import { takeRecipientSlot } from '../mail/recipient-limits.js';
import { renderAccountExists } from '../mail/templates/account-exists.js';
import { renderVerifyEmail } from '../mail/templates/verify-email.js';
import * as repo from './accounts.repo.js';
import { recordUserActivity } from '../tenants/activity.js';
import type { LoginThrottle } from './login-throttle.js';
import type { SignupNotices } from './signup-notices.js';
import { insertTenant } from '../tenants/tenants.service.js';
import { MAX_TENANT_NAME } from './accounts.schemas.js';

/** What account services need. */
export type AccountDeps = { db: Db; publicUrl: string; env: 'sandbox' | 'production' };

const SESSION_TTL_MS = 30 * 24 * 3600_000;
const VERIFICATION_TTL_MS = 48 * 3600_000;
// Verifying against a fixed hash when the e-mail is unknown keeps login time independent of
// whether an account exists.
const dummyHash = hash('signet-dummy-password');

/** The public shape of a user. */
export function presentUser(user: repo.UserRow) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.email_verified_at !== null,
    createdAt: user.created_at,
  };
}

/**
 * Creates an account and queues its verification e-mail in one transaction. An address that
 * already has an account gets the same answer (a user shaped alike, with an id that exists
 * nowhere), after the same password hashing, and nothing is created: the existing address
 * is sent a notice instead (at most one per SIGNUP_NOTICE_COOLDOWN_MS), so signup cannot be
 * used to find out who has an account. Either e-mail counts against the address's budget of
 * account e-mails (RECIPIENT_RULES.account); past it, nothing is sent and the answer is alike.
 */
export async function signUp(
  deps: AccountDeps,
  input: { email: string; password: string; name: string; tenantName?: string },
  notices: SignupNotices,
) {
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hash(input.password);
  const now = nowIso();
  const user: repo.UserRow = {
    id: newId(),
    email,
    name: input.name.trim(),
    password_hash: passwordHash,
    email_verified_at: null,
    created_at: now,
    updated_at: now,
  };
  await deps.db.kysely.transaction().execute(async (trx) => {
    const existing = await repo.findUserByEmail(trx, email);
    if (existing) {
      if (
        notices.take(email) &&
        (await takeRecipientSlot(trx, { kind: 'account', address: email })).ok
      ) {
        const loginUrl = `${deps.publicUrl}/login`;
        await queueEmail(trx, {
          to: existing.email,
          ...renderAccountExists({
            name: existing.email_verified_at !== null ? existing.name : null,
            loginUrl,
          }),
        });
      }
      return;
    }
    await repo.insertUser(trx, user);
    // The account's first tenant, made as POST /api/tenants makes one, so that a new user
    // starts with somewhere to put documents.
    await insertTenant(trx, deps.env, {
      userId: user.id,
      name: input.tenantName ?? defaultTenantName(user.name),
    });
    // Past the address's budget of account e-mails the account is made all the same (the
    // answer must not differ), and its owner can ask for the link again later.
    if ((await takeRecipientSlot(trx, { kind: 'account', address: email })).ok) {
      await queueVerificationEmail(trx, deps, user);
    }
  });
  return user;
}

/**
 * The first tenant's name when sign-up names none: "Ada Lovelace's workspace", the person's
 * name shortened to keep it within MAX_TENANT_NAME.
 */
export function defaultTenantName(personName: string) {
  const suffix = "'s workspace";
  return `${personName.slice(0, MAX_TENANT_NAME - suffix.length).trim()}${suffix}`;
}

/**
 * Stores a new verification token for the user and queues the e-mail with its link, inside the
 * caller's transaction (signup, and a resend: earlier links stay valid until they expire).
 */
export async function queueVerificationEmail(
  trx: DbOrTrx,
  deps: Pick<AccountDeps, 'publicUrl'>,
  user: { id: string; email: string; name: string },
) {
  const token = newSecret('ev_');
  await repo.insertVerification(trx, {
    token_hash: hashSecret(token),
    user_id: user.id,
    expires_at: isoIn(VERIFICATION_TTL_MS),
    created_at: nowIso(),
  });
  const link = `${deps.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  await queueEmail(trx, { to: user.email, ...renderVerifyEmail({ name: user.name, link }) });
}

/** Verifies the address behind a token from the verification e-mail. */
export async function verifyEmail(deps: AccountDeps, token: string) {
  const now = nowIso();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const userId = await repo.consumeVerification(trx, hashSecret(token), now);
    if (!userId)
      throw new AppError('invalid_token', 'This verification link is invalid or expired.');
    await repo.markEmailVerified(trx, userId, now);
    const user = await repo.findUserById(trx, userId);
    if (!user) throw new AppError('invalid_token');
    return user;
  });
}

/** Checks a password and opens a session; returns the raw session token for the cookie. */
export async function logIn(
  deps: AccountDeps,
  input: { email: string; password: string; ip: string },
  throttle: LoginThrottle,
) {
  const email = input.email.trim().toLowerCase();
  // Unknown addresses are throttled alike, so a 429 does not reveal whether an account exists.
  throttle.attempt(email, input.ip);
  const user = await repo.findUserByEmail(deps.db.kysely, email);
  const valid = await verify(user?.password_hash ?? (await dummyHash), input.password);
  if (!user || !valid) throw new AppError('invalid_credentials');
  throttle.succeeded(email, input.ip);
  const token = newSecret('ss_');
  await repo.insertSession(deps.db.kysely, {
    token_hash: hashSecret(token),
    user_id: user.id,
    created_at: nowIso(),
    expires_at: isoIn(SESSION_TTL_MS),
  });
  return { user, token, maxAgeSeconds: SESSION_TTL_MS / 1000 };
}

/** Ends a session. */
export async function logOut(deps: AccountDeps, token: string) {
  await repo.deleteSession(deps.db.kysely, hashSecret(token));
}

/** Makes an API key for this environment; the secret is returned once and only hashed. */
/** How many API keys a user may hold at once (revoked ones do not count). */
const MAX_ACTIVE_API_KEYS = 50;

/**
 * Makes an API key; its secret is in this answer only. A user holding MAX_ACTIVE_API_KEYS
 * unrevoked keys gets 409 api_key_limit_reached: each key is a bucket of the rate limit, so
 * unlimited keys would be an unlimited rate.
 */
export async function createApiKey(
  deps: AccountDeps,
  input: { userId: string; name: string; ip?: string | null },
) {
  const secret = newSecret(deps.env === 'production' ? 'sk_live_' : 'sk_test_');
  const row = {
    id: newId(),
    user_id: input.userId,
    name: input.name,
    key_hash: hashSecret(secret),
    prefix: secret.slice(0, 12),
    last_four: secret.slice(-4),
    environment: deps.env,
    created_at: nowIso(),
    last_used_at: null,
    revoked_at: null,
  };
  await deps.db.kysely.transaction().execute(async (trx) => {
    // Two requests at once cannot both take the last place.
    await repo.lockUser(trx, deps.db.engine, input.userId);
    if ((await repo.countActiveApiKeys(trx, input.userId)) >= MAX_ACTIVE_API_KEYS) {
      throw new AppError(
        'api_key_limit_reached',
        `You have ${MAX_ACTIVE_API_KEYS} API keys; revoke one you no longer use to make another.`,
      );
    }
    await repo.insertApiKey(trx, row);
    await recordUserActivity(trx, {
      action: 'api_key.created',
      by: { userId: input.userId, apiKeyId: null, ip: input.ip ?? null },
      details: apiKeyDetails(row),
    });
  });
  return { apiKey: presentApiKey(row), secret };
}

/** The public shape of an API key. */
export function presentApiKey(row: {
  id: string;
  name: string;
  prefix: string;
  last_four: string;
  environment: 'sandbox' | 'production';
  created_at: string;
  last_used_at: string | null;
}) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    lastFour: row.last_four,
    environment: row.environment,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/** Lists the user's live keys. */
export async function listApiKeys(deps: AccountDeps, userId: string) {
  return (await repo.listApiKeys(deps.db.kysely, userId)).map(presentApiKey);
}

/** Revokes a key at once; another user's key is not found. */
export async function revokeApiKey(
  deps: AccountDeps,
  input: { userId: string; keyId: string; ip?: string | null },
) {
  await deps.db.kysely.transaction().execute(async (trx) => {
    if (!(await repo.revokeApiKey(trx, input.userId, input.keyId, nowIso()))) {
      throw new AppError('not_found', 'No such API key.');
    }
    const row = (await repo.findApiKey(trx, input.userId, input.keyId))!;
    await recordUserActivity(trx, {
      action: 'api_key.revoked',
      by: { userId: input.userId, apiKeyId: null, ip: input.ip ?? null },
      details: apiKeyDetails(row),
    });
  });
}

// An API key as the activity log of its owner's tenants names it: never its secret, nor the
// prefix and last characters that are part of it.
function apiKeyDetails(row: { id: string; name: string; environment: string }) {
  return { apiKeyId: row.id, name: row.name, environment: row.environment };
}
