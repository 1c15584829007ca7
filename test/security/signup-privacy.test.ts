import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createUser, uniqueEmail } from '../helpers/factories.js';

describe.each(ENGINES)('signup privacy on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx.close());

  // Each from its own network: sign-up is limited per client address and network
  // (test/security/email-abuse.test.ts), which is not what these tests are about.
  let client = 0;
  const signup = (email: string, password: string, name: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password, name },
      remoteAddress: `10.45.${++client}.1`,
    });
  const emailsTo = (address: string) =>
    ctx.db.kysely
      .selectFrom('emails')
      .select(['subject', 'text', 'html'])
      .where('to_address', '=', address)
      .orderBy('created_at')
      .execute();

  it('answers a signup for an existing address like a new one and e-mails its owner', async () => {
    const owner = await createUser(ctx, { name: 'Olivia Owner' });
    const before = await ctx.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('email', '=', owner.email)
      .executeTakeFirstOrThrow();
    const mailBefore = await emailsTo(owner.email);
    const verificationsBefore = await ctx.db.kysely
      .selectFrom('email_verifications')
      .select('token_hash')
      .where('user_id', '=', owner.id)
      .execute();

    const fresh = await signup(uniqueEmail('fresh'), 'a new password', 'Mallory');
    const taken = await signup(owner.email.toUpperCase(), 'a new password', 'Mallory');

    // Same status, same headers that matter, same body shape; nothing that tells them apart.
    for (const res of [fresh, taken]) {
      expect(res.statusCode).toBe(201);
      expect(res.headers['content-type']).toBe(fresh.headers['content-type']);
      expect(Object.keys(res.json())).toEqual(['user']);
    }
    const [f, t] = [fresh.json().user, taken.json().user];
    expect(Object.keys(t).sort()).toEqual(Object.keys(f).sort());
    expect(t).toMatchObject({ email: owner.email, name: 'Mallory', emailVerified: false });
    expect(t.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(t.id).not.toBe(owner.id);
    expect(typeof t.createdAt).toBe(typeof f.createdAt);
    // The id refers to nothing: it is not the owner's and no row was made.
    expect(
      await ctx.db.kysely.selectFrom('users').select('id').where('id', '=', t.id).execute(),
    ).toEqual([]);

    // No second account, and the owner's account is unchanged.
    const rows = await ctx.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('email', '=', owner.email)
      .execute();
    expect(rows).toEqual([before]);
    const verificationsAfter = await ctx.db.kysely
      .selectFrom('email_verifications')
      .select('token_hash')
      .where('user_id', '=', owner.id)
      .execute();
    expect(verificationsAfter).toEqual(verificationsBefore);

    // One notice to the existing address, no verification e-mail.
    const mailAfter = await emailsTo(owner.email);
    expect(mailAfter.length).toBe(mailBefore.length + 1);
    const notice = mailAfter[mailAfter.length - 1];
    expect(notice.subject).toMatch(/tried to sign up/);
    expect(notice.text).toContain('Hello Olivia Owner,');
    expect(notice.text).toContain('http://localhost:3000/login');
    expect(notice.text + notice.html).not.toMatch(/verify-email\?token=/);
    expect(notice.text + notice.html).not.toContain('Mallory');

    // The original password still works; the one given at the signup does not.
    const login = (password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: owner.email, password },
        remoteAddress: '192.0.2.50',
      });
    expect((await login(owner.password)).statusCode).toBe(200);
    expect((await login('a new password')).statusCode).toBe(401);
  });

  it('sends at most one notice per address per cooldown, answering alike each time', async () => {
    const owner = await createUser(ctx);
    const before = (await emailsTo(owner.email)).length;
    for (let i = 0; i < 5; i++) {
      const res = await signup(owner.email, 'a new password', 'Repeat');
      expect(res.statusCode).toBe(201);
    }
    expect((await emailsTo(owner.email)).length).toBe(before + 1);
  });
});
