import { expect } from 'vitest';
import type { TestContext } from './context.js';

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

/** A signed-up user: optionally verified, logged in (cookie) and with an API key. */
export async function createUser(
  ctx: TestContext,
  options: { verified?: boolean; name?: string; email?: string } = {},
) {
  const email = options.email ?? uniqueEmail();
  const password = 'correct horse battery';
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

/** A tenant owned by the user (through the API). */
export async function createTenant(ctx: TestContext, apiKey: string, name = 'Acme') {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/tenants',
    headers: { 'x-api-key': apiKey },
    payload: { name },
  });
  expect(res.statusCode).toBe(201);
  return res.json().tenant as { id: string; name: string; role: string; createdAt: string };
}
