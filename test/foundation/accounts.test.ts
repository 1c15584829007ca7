import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app.js';
import type { AppError } from '../../server/src/lib/errors.js';
import { createLoginThrottle } from '../../server/src/modules/accounts/login-throttle.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createUser, uniqueEmail, verificationTokenFor } from '../helpers/factories.js';

describe.each(ENGINES)('accounts and API keys on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx.close());

  it('signs up, stores a hashed password and e-mails a verification link', async () => {
    const email = uniqueEmail('Signup').toUpperCase();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: 'a long password', name: ' Ada ' },
    });
    expect(res.statusCode).toBe(201);
    const { user } = res.json();
    expect(user).toMatchObject({ email: email.toLowerCase(), name: 'Ada', emailVerified: false });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    const row = await ctx.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const token = await verificationTokenFor(ctx, email.toLowerCase());
    const mail = await ctx.db.kysely
      .selectFrom('emails')
      .selectAll()
      .where('to_address', '=', email.toLowerCase())
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain(`http://localhost:3000/verify-email?token=${token}`);
    expect(mail.html).toContain(`/verify-email?token=${token}`);

    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: email.toLowerCase(), password: 'another password', name: 'Eve' },
    });
    // The same answer as a new signup, so signup does not reveal who has an account.
    expect(again.statusCode).toBe(201);
    expect(Object.keys(again.json().user).sort()).toEqual(Object.keys(user).sort());
    expect(again.json().user.id).not.toBe(user.id);
    const accounts = await ctx.db.kysely
      .selectFrom('users')
      .select('name')
      .where('email', '=', email.toLowerCase())
      .execute();
    expect(accounts).toEqual([{ name: 'Ada' }]);
  });

  it('rejects invalid sign-up fields with 422 and errors[] and stores nothing', async () => {
    const before = await ctx.db.kysely
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'not-an-email', password: 'short', name: '' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const body = res.json();
    expect(body).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.email',
      'body.name',
      'body.password',
    ]);
    const after = await ctx.db.kysely
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('verifies the address once through the link; a bad or used token is refused', async () => {
    const email = uniqueEmail('verify');
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: 'a long password', name: 'Vera' },
    });
    const token = await verificationTokenFor(ctx, email);
    const page = await ctx.app.inject({ method: 'GET', url: `/verify-email?token=${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('is verified');
    const reused = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token },
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe('invalid_token');
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'a long password' },
    });
    expect(login.json().user.emailVerified).toBe(true);
  });

  it('logs in with an HttpOnly cookie, answers me, and logs out', async () => {
    const user = await createUser(ctx);
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'wrong password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('invalid_credentials');
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: uniqueEmail('nobody'), password: 'whatever' },
    });
    expect(unknown.json().code).toBe('invalid_credentials');

    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
    });
    const setCookie = String(login.headers['set-cookie']);
    expect(setCookie).toMatch(/signet_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = setCookie.split(';')[0];

    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({ email: user.email, emailVerified: true });
    const meByKey = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'x-api-key': user.apiKey },
    });
    expect(meByKey.json().user.id).toBe(user.id);

    const logout = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'http://localhost:3000' },
    });
    expect(logout.statusCode).toBe(204);
    const after = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('unauthenticated');
  });

  it('slows logins for an address after five failures from one client, whatever the password', async () => {
    const user = await createUser(ctx);
    const other = await createUser(ctx);
    const login = (email: string, password: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    for (let i = 0; i < 5; i++) {
      // Any spelling of the address counts against it.
      const res = await login(i % 2 ? user.email.toUpperCase() : user.email, `wrong password ${i}`);
      expect(res.statusCode).toBe(401);
    }
    // The next attempt must wait a second; before that even the right password is refused.
    const refused = await login(user.email, user.password);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json().code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['set-cookie']).toBeUndefined();
    // Another account, and an address with no account, are not affected.
    expect((await login(other.email, other.password)).statusCode).toBe(200);
    expect((await login(uniqueEmail('nobody'), 'whatever')).statusCode).toBe(401);
  });

  it('doubles the wait per further failure and forgets the failures after a success', () => {
    let now = 0;
    const throttle = createLoginThrottle(() => now);
    const waitSeconds = () => {
      try {
        throttle.attempt('a@example.com', '192.0.2.1');
        return 0;
      } catch (err) {
        expect((err as AppError).code).toBe('rate_limited');
        return Number((err as AppError).headers?.['retry-after']);
      }
    };
    // attempt() counts a failure until succeeded() takes it back.
    for (let i = 0; i < 5; i++) expect(waitSeconds()).toBe(0);
    throttle.succeeded('a@example.com', '192.0.2.1');
    for (let i = 0; i < 5; i++) expect(waitSeconds()).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const wait = waitSeconds();
      waits.push(wait);
      now += wait * 1000 - 1;
      expect(waitSeconds()).toBe(1);
      now += 1;
      expect(waitSeconds()).toBe(0);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
  });

  it('signs the session cookie with SECRET_KEY and refuses one it did not sign', async () => {
    const user = await createUser(ctx);
    const value = decodeURIComponent(user.cookie.slice('signet_session='.length));
    // The random token, then "." and the cookie's HMAC signature.
    const [token, signature] = [
      value.slice(0, value.lastIndexOf('.')),
      value.slice(value.lastIndexOf('.') + 1),
    ];
    expect(token).toMatch(/^ss_/);
    expect(signature).toMatch(/^[\w+/-]{43}$/);
    const me = (cookie: string, app = ctx.app) =>
      app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect((await me(user.cookie)).statusCode).toBe(200);

    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    for (const cookie of [
      `signet_session=${encodeURIComponent(`${token}.${flipped}`)}`,
      `signet_session=${encodeURIComponent(token)}`,
    ]) {
      const res = await me(cookie);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthenticated');
    }
    // Logging out with a forged cookie does not end the real session.
    const forgedLogout = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: {
        cookie: `signet_session=${encodeURIComponent(token)}`,
        origin: 'http://localhost:3000',
      },
    });
    expect(forgedLogout.statusCode).toBe(204);
    expect((await me(user.cookie)).statusCode).toBe(200);

    // The same database behind a service with another SECRET_KEY: every session has ended.
    const other = await buildApp({
      config: { ...ctx.config, secretKey: 'another-secret-key-another-secret-key-0123' },
      db: ctx.db,
      logger: false,
    });
    try {
      const res = await me(user.cookie, other.app);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthenticated');
    } finally {
      await other.app.close();
    }
  });

  it('does not let another origin use a session, and needs the cookie', async () => {
    const user = await createUser(ctx);
    const crossSite = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/api-keys',
      headers: { cookie: user.cookie, origin: 'https://evil.example' },
      payload: { name: 'stolen' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().code).toBe('cross_origin_rejected');
    const fetchSite = await ctx.app.inject({
      method: 'POST',
      url: '/api/tenants',
      headers: { cookie: user.cookie, 'sec-fetch-site': 'cross-site' },
      payload: { name: 'stolen' },
    });
    expect(fetchSite.statusCode).toBe(403);
    const noCookie = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/api-keys',
      headers: { origin: 'http://localhost:3000' },
      payload: { name: 'anonymous' },
    });
    expect(noCookie.statusCode).toBe(401);
    const sameOrigin = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/api-keys',
      headers: { cookie: user.cookie, origin: 'http://localhost:3000' },
      payload: { name: 'mine' },
    });
    expect(sameOrigin.statusCode).toBe(201);
  });

  it('makes API keys with a session only, shows the secret once and stores only a hash', async () => {
    const user = await createUser(ctx);
    expect(user.apiKey).toMatch(/^sk_test_[A-Za-z0-9_-]{40,}$/);
    const viaKey = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/api-keys',
      headers: { 'x-api-key': user.apiKey },
      payload: { name: 'minted by a key' },
    });
    expect(viaKey.statusCode).toBe(401);
    expect(viaKey.json().code).toBe('session_required');

    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/account/api-keys',
      headers: { cookie: user.cookie },
    });
    expect(list.statusCode).toBe(200);
    const [key] = list.json().apiKeys;
    expect(Object.keys(key).sort()).toEqual(
      ['createdAt', 'environment', 'id', 'lastFour', 'lastUsedAt', 'name', 'prefix'].sort(),
    );
    expect(key).toMatchObject({
      prefix: user.apiKey.slice(0, 12),
      lastFour: user.apiKey.slice(-4),
      environment: 'sandbox',
    });
    expect(list.body).not.toContain(user.apiKey);
    const stored = await ctx.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(user.apiKey);
  });

  it('never stores or replays a key secret under an Idempotency-Key', async () => {
    const user = await createUser(ctx);
    const request = {
      method: 'POST' as const,
      url: '/api/account/api-keys',
      headers: {
        cookie: user.cookie,
        origin: 'http://localhost:3000',
        'idempotency-key': 'key-once',
      },
      payload: { name: 'idempotent' },
    };
    const first = await ctx.app.inject(request);
    expect(first.statusCode).toBe(201);
    const secret = first.json().secret as string;
    const again = await ctx.app.inject(request);
    expect(again.statusCode).toBe(409);
    expect(again.body).not.toContain(secret);
    const stored = await ctx.db.kysely.selectFrom('idempotency_keys').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('tracks lastUsedAt and revokes at once', async () => {
    const user = await createUser(ctx);
    const use = await ctx.app.inject({
      method: 'GET',
      url: '/api/tenants',
      headers: { 'x-api-key': user.apiKey },
    });
    expect(use.statusCode).toBe(200);
    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/account/api-keys',
      headers: { cookie: user.cookie },
    });
    expect(list.json().apiKeys[0].lastUsedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const revoke = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/account/api-keys/${user.apiKeyId}`,
      headers: { cookie: user.cookie, origin: 'http://localhost:3000' },
    });
    expect(revoke.statusCode).toBe(204);
    const after = await ctx.app.inject({
      method: 'GET',
      url: '/api/tenants',
      headers: { 'x-api-key': user.apiKey },
    });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('api_key_revoked');
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/account/api-keys/${user.apiKeyId}`,
      headers: { cookie: user.cookie, origin: 'http://localhost:3000' },
    });
    expect(again.statusCode).toBe(404);
  });

  it('answers 401 with distinct codes for missing, unknown and other-environment keys', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'unauthenticated'],
      [{ 'x-api-key': 'sk_test_doesnotexist000000000000000000000000000' }, 'invalid_api_key'],
      [{ 'x-api-key': 'garbage' }, 'invalid_api_key'],
      [{ 'x-api-key': 'sk_live_somethingfromproduction0000000000000000' }, 'wrong_environment'],
    ];
    for (const [headers, code] of cases) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/tenants', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ status: 401, code });
    }
  });
});
