// Fixtures written straight through the repos and services on ctx.db: no HTTP, no e-mail, and
// no argon2 per user (one password hash per process). The HTTP paths stay in factories.ts for
// the tests about signup, verification and login themselves.
import { hash } from '@node-rs/argon2';
import * as accountsRepo from '../../server/src/modules/accounts/accounts.repo.js';
import { createApiKey } from '../../server/src/modules/accounts/accounts.service.js';
import { insertMembership } from '../../server/src/modules/tenants/tenants.repo.js';
import { createTenant } from '../../server/src/modules/tenants/tenants.service.js';
import { SESSION_COOKIE } from '../../server/src/http/auth.js';
import type { Role } from '../../server/src/lib/policy.js';
import { hashSecret, isoIn, memoize, newId, newSecret, nowIso } from '../../server/src/lib/ids.js';
import type { TestContext } from './context.js';

/** The password of every factory-made user. */
export const TEST_PASSWORD = 'correct horse battery';

// argon2 with the service's own (default) parameters, paid once per test process: logins with
// TEST_PASSWORD verify against it like against a hash signup stored.
const testPasswordHash = memoize(() => hash(TEST_PASSWORD));

// What the accounts service keeps a session for (SESSION_TTL_MS there).
const SESSION_TTL_MS = 30 * 24 * 3600_000;

/** Inserts a user with TEST_PASSWORD, verified unless told otherwise; returns its row. */
export async function insertUser(
  ctx: TestContext,
  options: { email: string; name?: string; verified?: boolean },
): Promise<accountsRepo.UserRow> {
  const now = nowIso();
  const user: accountsRepo.UserRow = {
    id: newId(),
    email: options.email.trim().toLowerCase(),
    name: (options.name ?? 'Test User').trim(),
    password_hash: await testPasswordHash(),
    email_verified_at: options.verified === false ? null : now,
    created_at: now,
    updated_at: now,
  };
  await accountsRepo.insertUser(ctx.db.kysely, user);
  return user;
}

/** Opens a session for the user; returns the `cookie` header value the login would have set. */
export async function insertSession(ctx: TestContext, userId: string): Promise<string> {
  const token = newSecret('ss_');
  await accountsRepo.insertSession(ctx.db.kysely, {
    token_hash: hashSecret(token),
    user_id: userId,
    created_at: nowIso(),
    expires_at: isoIn(SESSION_TTL_MS),
  });
  // Signed with the app's own @fastify/cookie signer, so auth accepts it as one of its own.
  return `${SESSION_COOKIE}=${encodeURIComponent(ctx.app.signCookie(token))}`;
}

/** Makes an API key of the service's environment for the user; returns its secret and id. */
export async function insertApiKey(ctx: TestContext, userId: string, name = 'test key') {
  const deps = { db: ctx.db, publicUrl: ctx.config.publicUrl, env: ctx.config.env };
  const { apiKey, secret } = await createApiKey(deps, { userId, name });
  return { secret, id: apiKey.id };
}

/** Creates a tenant owned by the user, with its starting credits. */
export function insertTenant(ctx: TestContext, userId: string, name = 'Acme') {
  return createTenant({ db: ctx.db, env: ctx.config.env }, { userId, name });
}

/** Makes the user a member of the tenant with a role, directly (no invitation). */
export async function insertMember(ctx: TestContext, tenantId: string, userId: string, role: Role) {
  await insertMembership(ctx.db.kysely, {
    tenant_id: tenantId,
    user_id: userId,
    role,
    created_at: nowIso(),
  });
}

/**
 * The id of the user an API key secret belongs to, recording the key's use as authentication
 * does: the HTTP factories used the key to create the tenant, and a test may count on a request
 * not having to write last_used_at (e.g. while it holds SQLite's one writer in a transaction).
 */
export async function userIdOfApiKey(ctx: TestContext, secret: string): Promise<string> {
  const row = await accountsRepo.findApiKeyWithUser(ctx.db.kysely, hashSecret(secret));
  if (!row) throw new Error('no such API key');
  await accountsRepo.touchApiKey(ctx.db.kysely, row.keyId, nowIso());
  return row.id;
}
