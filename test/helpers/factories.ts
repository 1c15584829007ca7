import { afterAll, beforeAll, expect } from 'vitest';
import { createTestContext, type EngineName, type TestContext } from './context.js';
import {
  insertApiKey,
  insertSession,
  insertTenant,
  insertUser,
  TEST_PASSWORD,
  userIdOfApiKey,
} from './db-factories.js';

let n = 0;

/** A unique e-mail address for a test user. */
export function uniqueEmail(label = 'user'): string {
  return `${label}.${process.pid}.${Date.now()}.${n++}@example.com`;
}

/** Reads the verification token from the newest stored e-mail to an address. */
export async function verificationTokenFor(ctx: TestContext, email: string): Promise<string> {
  const row = await ctx.db.kysely
    .selectFrom('emails')
    .select('text')
    .where('to_address', '=', email)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const match = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(row.text);
  if (!match) throw new Error('no verification link in e-mail');
  return match[1];
}

/** What createUser accepts. */
export type CreateUserOptions = { verified?: boolean; name?: string; email?: string };

/** A test user with a session cookie and an API key, as createUser returns it. */
export type TestUser = {
  id: string;
  email: string;
  password: string;
  cookie: string;
  apiKey: string;
  apiKeyId: string;
};

/**
 * A user (verified unless told otherwise) with a session cookie and an API key, written
 * straight to the database: for every test that is not about signup, verification or login.
 */
export async function createUser(
  ctx: TestContext,
  options: CreateUserOptions = {},
): Promise<TestUser> {
  const email = options.email ?? uniqueEmail();
  const user = await insertUser(ctx, { email, name: options.name, verified: options.verified });
  const cookie = await insertSession(ctx, user.id);
  const key = await insertApiKey(ctx, user.id);
  return {
    id: user.id,
    email,
    password: TEST_PASSWORD,
    cookie,
    apiKey: key.secret,
    apiKeyId: key.id,
  };
}

/**
 * The same user made through HTTP: signup, the e-mailed verification link, login and a new
 * API key. For tests whose subject is what those routes store or send.
 */
export async function createUserViaHttp(
  ctx: TestContext,
  options: CreateUserOptions = {},
): Promise<TestUser> {
  const email = options.email ?? uniqueEmail();
  const password = TEST_PASSWORD;
  const signup = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { email, password, name: options.name ?? 'Test User' },
  });
  expect(signup.statusCode).toBe(201);
  if (options.verified !== false) {
    const token = await verificationTokenFor(ctx, email);
    const verify = await ctx.app.inject({ method: 'GET', url: `/verify-email?token=${token}` });
    expect(verify.statusCode).toBe(200);
  }
  const login = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
  });
  expect(login.statusCode).toBe(200);
  const cookie = login.cookies.find((c) => c.name === 'signet_session');
  if (!cookie) throw new Error('no session cookie');
  const cookieHeader = `signet_session=${cookie.value}`;
  const key = await ctx.app.inject({
    method: 'POST',
    url: '/api/account/api-keys',
    headers: { cookie: cookieHeader, origin: new URL(ctx.config.publicUrl).origin },
    payload: { name: 'test key' },
  });
  expect(key.statusCode).toBe(201);
  return {
    id: signup.json().user.id as string,
    email,
    password,
    cookie: cookieHeader,
    apiKey: key.json().secret as string,
    apiKeyId: key.json().apiKey.id as string,
  };
}

/** A tenant owned by the API key's user, written straight to the database. */
export async function createTenant(ctx: TestContext, apiKey: string, name = 'Acme') {
  return insertTenant(ctx, await userIdOfApiKey(ctx, apiKey), name);
}

/** A tenant owned by the API key's user, made through POST /api/tenants. */
export async function createTenantViaHttp(ctx: TestContext, apiKey: string, name = 'Acme') {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/tenants',
    headers: { 'x-api-key': apiKey },
    payload: { name },
  });
  expect(res.statusCode).toBe(201);
  return res.json().tenant as { id: string; name: string; role: string; createdAt: string };
}

/**
 * Makes `user` a member the way the service allows: the owner invites through HTTP, the
 * invitee accepts with the e-mailed link. Returns both answers.
 */
export async function addMemberByInvitation(
  ctx: TestContext,
  ownerKey: string,
  tenantId: string,
  user: { email: string; apiKey: string },
  role: 'owner' | 'admin' | 'member',
) {
  const invited = await ctx.app.inject({
    method: 'POST',
    url: `/api/tenants/${tenantId}/members`,
    headers: { 'x-api-key': ownerKey },
    payload: { email: user.email, role },
  });
  expect(invited.statusCode).toBe(202);
  const { text } = await ctx.db.kysely
    .selectFrom('emails')
    .select('text')
    .where('to_address', '=', user.email.toLowerCase())
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const token = /\/invitations\/(iv_[\w-]+)/.exec(text)?.[1];
  if (!token) throw new Error('no invitation link in e-mail');
  const accepted = await ctx.app.inject({
    method: 'POST',
    url: `/api/invitations/${token}/accept`,
    headers: { 'x-api-key': user.apiKey },
  });
  expect(accepted.statusCode).toBe(200);
  return { invitation: invited.json().invitation, membership: accepted.json().membership };
}

/**
 * The usual fixture of a describe block: a service on `engine` with a user's API key and one
 * tenant, made before its tests and closed after them. Read its fields inside tests and hooks.
 */
export function useTenantFixture(
  engine: EngineName,
  options?: Parameters<typeof createTestContext>[1],
): { ctx: TestContext; apiKey: string; tenantId: string } {
  const fixture = {} as { ctx: TestContext; apiKey: string; tenantId: string };
  beforeAll(async () => {
    fixture.ctx = await createTestContext(engine, options);
    fixture.apiKey = (await createUser(fixture.ctx)).apiKey;
    fixture.tenantId = (await createTenant(fixture.ctx, fixture.apiKey)).id;
  });
  afterAll(() => fixture.ctx?.close());
  return fixture;
}
