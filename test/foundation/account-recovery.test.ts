import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../server/src/db/migrate.js';
import { hashSecret } from '../../server/src/lib/ids.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createUser, uniqueEmail, verificationTokenFor } from '../helpers/factories.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';

// Each test speaks from its own client address: the recovery requests share a per-address
// budget (10, then one per 6 minutes), which one test checks on purpose.
let client = 0;
const nextClient = () => `198.51.100.${++client}`;

/** The reset token in the newest e-mail to an address. */
async function resetTokenFor(ctx: TestContext, email: string): Promise<string> {
  const row = await ctx.db.kysely
    .selectFrom('emails')
    .select('text')
    .where('to_address', '=', email)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const match = /\/reset-password\?token=(pr_[A-Za-z0-9_-]+)/.exec(row.text);
  if (!match) throw new Error('no reset link in e-mail');
  return match[1];
}

describe.each(ENGINES)('account recovery on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx.close());

  const post = (url: string, payload: unknown, remoteAddress: string, cookie?: string) =>
    ctx.app.inject({
      method: 'POST',
      url,
      payload: payload as Record<string, unknown>,
      remoteAddress,
      headers: cookie ? { cookie, origin: 'http://localhost:3000' } : {},
    });
  const emailsTo = (address: string) =>
    ctx.db.kysely
      .selectFrom('emails')
      .select(['subject', 'text', 'html'])
      .where('to_address', '=', address)
      .orderBy('created_at')
      .execute();
  const eventsOf = (userId: string) =>
    ctx.db.kysely
      .selectFrom('account_events')
      .select(['type', 'ip'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  // The spacing rule reads the account's recent events: moving them back stands in for time.
  const ageEvents = (userId: string, ms: number) =>
    ctx.db.kysely
      .selectFrom('account_events')
      .select(['id', 'created_at'])
      .where('user_id', '=', userId)
      .execute()
      .then((rows) =>
        Promise.all(
          rows.map((r) =>
            ctx.db.kysely
              .updateTable('account_events')
              .set({ created_at: new Date(Date.parse(r.created_at) - ms).toISOString() })
              .where('id', '=', r.id)
              .execute(),
          ),
        ),
      );
  const login = (email: string, password: string, remoteAddress: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      remoteAddress,
    });
  const signUp = async (email: string) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: 'a long password', name: 'Una Verified' },
      remoteAddress: nextClient(),
    });
    expect(res.statusCode).toBe(201);
    return res.json().user.id as string;
  };

  it('answers a resend alike for unknown, verified and unverified addresses', async () => {
    const ip = nextClient();
    const unverifiedEmail = uniqueEmail('unverified');
    const unverifiedId = await signUp(unverifiedEmail);
    const oldToken = await verificationTokenFor(ctx, unverifiedEmail);
    const verified = await createUser(ctx);
    const unknown = uniqueEmail('nobody');
    const before = {
      verified: (await emailsTo(verified.email)).length,
      unverified: (await emailsTo(unverifiedEmail)).length,
    };

    const answers = [
      await post('/api/auth/resend-verification', { email: unknown }, ip),
      await post('/api/auth/resend-verification', { email: verified.email }, ip),
      await post('/api/auth/resend-verification', { email: unverifiedEmail.toUpperCase() }, ip),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(202);
      expect(res.headers['content-type']).toBe(answers[0].headers['content-type']);
      expect(res.json()).toEqual(answers[0].json());
    }
    expect(answers[0].json().message).toMatch(/^If this address belongs to an account/);

    expect(await emailsTo(unknown)).toEqual([]);
    expect((await emailsTo(verified.email)).length).toBe(before.verified);
    expect(await eventsOf(verified.id)).toEqual([]);
    const mail = await emailsTo(unverifiedEmail);
    expect(mail.length).toBe(before.unverified + 1);
    expect(mail.at(-1)?.subject).toBe('Confirm your e-mail address for Signet');
    const newToken = await verificationTokenFor(ctx, unverifiedEmail);
    expect(newToken).not.toBe(oldToken);
    expect(await eventsOf(unverifiedId)).toEqual([{ type: 'verification_resent', ip }]);

    // Asked again at once: the same answer, no second e-mail.
    const again = await post('/api/auth/resend-verification', { email: unverifiedEmail }, ip);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(answers[0].json());
    expect((await emailsTo(unverifiedEmail)).length).toBe(before.unverified + 1);

    // Both links work: the new one verifies, the earlier one stays valid until it expires.
    const page = await ctx.app.inject({ method: 'GET', url: `/verify-email?token=${newToken}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('is verified');
    const old = await post('/api/auth/verify-email', { token: oldToken }, ip);
    expect(old.statusCode).toBe(200);
    expect(old.json().user).toMatchObject({ email: unverifiedEmail, emailVerified: true });

    // Verified now: a resend sends nothing even with the spacing long past.
    await ageEvents(unverifiedId, 48 * 3600_000);
    const after = await post('/api/auth/resend-verification', { email: unverifiedEmail }, ip);
    expect(after.json()).toEqual(answers[0].json());
    expect((await emailsTo(unverifiedEmail)).length).toBe(before.unverified + 1);
  });

  it('lets a logged-in unverified user resend from the session', async () => {
    const user = await createUser(ctx, { verified: false });
    const res = await post(
      '/api/auth/resend-verification',
      { email: user.email },
      nextClient(),
      user.cookie,
    );
    expect(res.statusCode).toBe(202);
    const token = await verificationTokenFor(ctx, user.email);
    const verify = await post('/api/auth/verify-email', { token }, nextClient());
    expect(verify.json().user.emailVerified).toBe(true);
  });

  it('spaces recovery e-mails to one address out: 1, then 2 minutes, …', async () => {
    const ip = nextClient();
    const user = await createUser(ctx, { verified: false });
    const resend = () => post('/api/auth/resend-verification', { email: user.email }, ip);
    const count = async () => (await emailsTo(user.email)).length;
    await resend();
    expect(await count()).toBe(1);
    await ageEvents(user.id, 59_000);
    await resend();
    expect(await count()).toBe(1);
    await ageEvents(user.id, 2_000);
    await resend();
    expect(await count()).toBe(2);
    // Two in the window: the next waits 2 minutes after the last.
    await ageEvents(user.id, 61_000);
    await resend();
    expect(await count()).toBe(2);
    await ageEvents(user.id, 60_000);
    await resend();
    expect(await count()).toBe(3);
    expect((await eventsOf(user.id)).map((e) => e.type)).toEqual([
      'verification_resent',
      'verification_resent',
      'verification_resent',
    ]);
    // Reset e-mails are spaced on their own: the first goes at once.
    await post('/api/auth/password-reset', { email: user.email }, ip);
    expect(await count()).toBe(4);
  });

  it('limits recovery requests per client address, whatever the address asked about', async () => {
    const ip = nextClient();
    const user = await createUser(ctx);
    for (let i = 0; i < 10; i++) {
      const url = i % 2 ? '/api/auth/password-reset' : '/api/auth/resend-verification';
      const res = await post(url, { email: i === 3 ? user.email : uniqueEmail('spray') }, ip);
      expect(res.statusCode).toBe(202);
    }
    for (const email of [user.email, uniqueEmail('spray')]) {
      const refused = await post('/api/auth/password-reset', { email }, ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.json().code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(300);
    }
    // Only the one request that passed reached the user's mailbox.
    expect((await emailsTo(user.email)).length).toBe(1);
    // Another client is not affected; an IPv6 /64 counts as one client.
    expect(
      (await post('/api/auth/password-reset', { email: user.email }, '2001:db8::1')).statusCode,
    ).toBe(202);
  });

  it('answers a reset request alike and e-mails a single-use link that ends every session', async () => {
    const ip = nextClient();
    const user = await createUser(ctx, { name: 'Rita Reset' });
    const second = await createUser(ctx);
    // A second session of the same user, as from another device.
    const otherDevice = await login(user.email, user.password, ip);
    expect(otherDevice.statusCode).toBe(200);
    const otherCookie = `signet_session=${otherDevice.cookies.find((c) => c.name === 'signet_session')?.value}`;

    const unknown = uniqueEmail('nobody');
    const known = await post('/api/auth/password-reset', { email: user.email.toUpperCase() }, ip);
    const stranger = await post('/api/auth/password-reset', { email: unknown }, ip);
    for (const res of [known, stranger]) {
      expect(res.statusCode).toBe(202);
      expect(res.headers['content-type']).toBe(known.headers['content-type']);
      expect(res.json()).toEqual(known.json());
    }
    expect(await emailsTo(unknown)).toEqual([]);

    const [mail] = await emailsTo(user.email);
    expect(mail.subject).toBe('Reset your Signet password');
    expect(mail.text).toContain('Hello Rita Reset,');
    expect(mail.text).toMatch(/valid for 60 minutes and works once/);
    const token = await resetTokenFor(ctx, user.email);
    expect(mail.text).toContain(`http://localhost:3000/reset-password?token=${token}`);
    expect(mail.html).toContain(`/reset-password?token=${token}`);
    // Only the token's hash is stored.
    const rows = await ctx.db.kysely
      .selectFrom('password_resets')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(hashSecret(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(Date.parse(rows[0].expires_at) - Date.parse(rows[0].created_at)).toBe(3600_000);

    const reset = await post(
      '/api/auth/password-reset/confirm',
      { token, password: 'a brand new password' },
      ip,
    );
    expect(reset.statusCode).toBe(200);
    expect(reset.json().user).toMatchObject({ id: user.id, email: user.email });
    expect(reset.headers['set-cookie']).toBeUndefined();

    // Every session of the user ended; the other user's did not; API keys keep working.
    for (const cookie of [user.cookie, otherCookie]) {
      const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
      expect(me.statusCode).toBe(401);
      expect(me.json().code).toBe('unauthenticated');
    }
    const secondMe = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: second.cookie },
    });
    expect(secondMe.statusCode).toBe(200);
    const byKey = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'x-api-key': user.apiKey },
    });
    expect(byKey.statusCode).toBe(200);

    expect((await login(user.email, user.password, ip)).statusCode).toBe(401);
    expect((await login(user.email, 'a brand new password', ip)).statusCode).toBe(200);

    // Used: refused, and nothing changes.
    const reused = await post(
      '/api/auth/password-reset/confirm',
      { token, password: 'yet another password' },
      ip,
    );
    expect(reused.statusCode).toBe(400);
    expect(reused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(reused.json()).toMatchObject({ code: 'invalid_token', status: 400 });
    expect((await login(user.email, 'a brand new password', ip)).statusCode).toBe(200);

    expect(await eventsOf(user.id)).toEqual([
      { type: 'password_reset_requested', ip },
      { type: 'password_reset', ip },
    ]);
  });

  it('refuses an expired, unknown or replaced token and keeps the password', async () => {
    const ip = nextClient();
    const user = await createUser(ctx);
    await post('/api/auth/password-reset', { email: user.email }, ip);
    const first = await resetTokenFor(ctx, user.email);
    // A newer request (once the spacing allows it) replaces the first link.
    await ageEvents(user.id, 61_000);
    await post('/api/auth/password-reset', { email: user.email }, ip);
    const second = await resetTokenFor(ctx, user.email);
    expect(second).not.toBe(first);
    const replaced = await ctx.db.kysely
      .selectFrom('password_resets')
      .select(['revoked_at', 'used_at'])
      .where('token_hash', '=', hashSecret(first))
      .executeTakeFirstOrThrow();
    expect(replaced.revoked_at).not.toBeNull();
    expect(replaced.used_at).toBeNull();

    const confirm = (token: string) =>
      post('/api/auth/password-reset/confirm', { token, password: 'a brand new password' }, ip);
    for (const token of [first, 'pr_unknown', `${second}x`]) {
      const res = await confirm(token);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalid_token');
    }

    // An hour later the live link has expired too.
    await ctx.db.kysely
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashSecret(second))
      .execute();
    const expired = await confirm(second);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({
      code: 'invalid_token',
      detail: expect.stringMatching(/invalid, expired or already used/),
    });

    expect((await login(user.email, user.password, ip)).statusCode).toBe(200);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: user.cookie },
    });
    expect(me.statusCode).toBe(200);
    expect((await eventsOf(user.id)).map((e) => e.type)).toEqual([
      'password_reset_requested',
      'password_reset_requested',
    ]);
  });

  it('refuses a weak password with 422 on body.password and changes nothing', async () => {
    const ip = nextClient();
    const user = await createUser(ctx);
    await post('/api/auth/password-reset', { email: user.email }, ip);
    const token = await resetTokenFor(ctx, user.email);

    const weak = await post('/api/auth/password-reset/confirm', { token, password: 'short' }, ip);
    expect(weak.statusCode).toBe(422);
    expect(weak.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(weak.json()).toMatchObject({ code: 'validation_failed' });
    expect(weak.json().errors).toEqual([
      { path: 'body.password', message: 'must be at least 10 characters' },
    ]);
    const missing = await post(
      '/api/auth/password-reset/confirm',
      { password: 'long enough!' },
      ip,
    );
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.map((e: { path: string }) => e.path)).toEqual(['body.token']);
    const badEmail = await post('/api/auth/password-reset', { email: 'not-an-address' }, ip);
    expect(badEmail.statusCode).toBe(422);
    expect(badEmail.json().errors.map((e: { path: string }) => e.path)).toEqual(['body.email']);
    const malformed = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/resend-verification',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
      remoteAddress: ip,
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('malformed_request');

    // The password, the session and the token are untouched: the link still works.
    expect((await login(user.email, user.password, ip)).statusCode).toBe(200);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: user.cookie },
    });
    expect(me.statusCode).toBe(200);
    expect((await eventsOf(user.id)).map((e) => e.type)).toEqual(['password_reset_requested']);
    const ok = await post(
      '/api/auth/password-reset/confirm',
      { token, password: 'long enough now' },
      ip,
    );
    expect(ok.statusCode).toBe(200);
  });

  it('resets an unverified account without verifying it, and clears the login slowdown', async () => {
    const ip = nextClient();
    const user = await createUser(ctx, { verified: false });
    for (let i = 0; i < 5; i++) {
      expect((await login(user.email, `wrong password ${i}`, ip)).statusCode).toBe(401);
    }
    expect((await login(user.email, user.password, ip)).statusCode).toBe(429);
    await post('/api/auth/password-reset', { email: user.email }, ip);
    const token = await resetTokenFor(ctx, user.email);
    const reset = await post(
      '/api/auth/password-reset/confirm',
      { token, password: 'a fresh start here' },
      ip,
    );
    expect(reset.statusCode).toBe(200);
    expect(reset.json().user.emailVerified).toBe(false);
    const res = await login(user.email, 'a fresh start here', ip);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.emailVerified).toBe(false);
  });

  it('describes every accounts route in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject('/api/openapi.json')).json() as {
      paths: Record<
        string,
        Record<
          string,
          { operationId?: string; summary?: string; tags?: string[]; security?: unknown[] }
        >
      >;
    };
    const want: Record<string, [string, boolean]> = {
      'post /api/auth/signup': ['signUp', true],
      'post /api/auth/verify-email': ['verifyEmail', true],
      'post /api/auth/login': ['logIn', true],
      'post /api/auth/logout': ['logOut', false],
      'get /api/auth/me': ['getCurrentUser', false],
      'post /api/account/api-keys': ['createApiKey', false],
      'get /api/account/api-keys': ['listApiKeys', false],
      'delete /api/account/api-keys/{keyId}': ['revokeApiKey', false],
      'post /api/auth/resend-verification': ['resendVerification', true],
      'post /api/auth/password-reset': ['requestPasswordReset', true],
      'post /api/auth/password-reset/confirm': ['resetPassword', true],
    };
    const ids = new Set<string>();
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) if (op.operationId) ids.add(op.operationId);
    }
    for (const [route, [operationId, isPublic]] of Object.entries(want)) {
      const [method, path] = route.split(' ');
      const op = doc.paths[path]?.[method];
      expect(op?.operationId, route).toBe(operationId);
      expect(op?.summary, route).toMatch(/^\S/);
      expect(op?.tags, route).toEqual(['accounts']);
      if (isPublic) expect(op?.security, route).toEqual([]);
      else expect(op?.security, route).not.toEqual([]);
    }
    // Still a valid document, and operation ids are unique across all of it.
    const validation = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(validation.errors ?? []).toEqual([]);
    const all = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    expect(all.filter((id) => id !== undefined).length).toBe(ids.size);
    expect(doc.paths['/reset-password']).toBeUndefined();
  });

  // Last in this block: it takes the schema down and back up under the shared service.
  it('migrates 0012 down and up again', async () => {
    const tables = async () => (await ctx.db.kysely.introspection.getTables()).map((t) => t.name);
    await migrateTo(ctx.db, '0011-after-signing');
    expect(await tables()).not.toContain('password_resets');
    expect(await tables()).not.toContain('account_events');
    await migrateToLatest(ctx.db);
    expect(await tables()).toEqual(expect.arrayContaining(['password_resets', 'account_events']));
  });
});

describe.each(ENGINES)('password reset over real SMTP on %s', (engine) => {
  let smtp: SmtpSink;
  let ctx: TestContext;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    ctx = await createTestContext(engine, { env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('delivers the link, which works once, and keeps no usable copy of it', async () => {
    const user = await createUser(ctx);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: user.email },
      remoteAddress: '203.0.113.7',
    });
    expect(res.statusCode).toBe(202);
    const delivered = await smtp.waitFor((m) => (m.to as { text: string }).text === user.email);
    expect(delivered.subject).toBe('Reset your Signet password');
    const link = /http:\/\/localhost:3000\/reset-password\?token=(pr_[\w-]+)/.exec(
      delivered.text ?? '',
    );
    expect(link).not.toBeNull();
    const token = link![1];
    let row;
    for (let i = 0; i < 100; i++) {
      row = await ctx.db.kysely
        .selectFrom('emails')
        .selectAll()
        .where('to_address', '=', user.email)
        .executeTakeFirstOrThrow();
      if (row.status === 'sent') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(row?.status).toBe('sent');
    expect(`${row?.text}${row?.html}`).not.toContain(token);

    const confirm = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token, password: 'delivered and used' },
      });
    expect((await confirm()).statusCode).toBe(200);
    expect((await confirm()).json().code).toBe('invalid_token');
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'delivered and used' },
    });
    expect(login.statusCode).toBe(200);
  });
});
