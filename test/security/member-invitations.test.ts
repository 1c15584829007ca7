import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser, verificationTokenFor } from '../helpers/factories.js';

// Membership by consent: an invitation answers alike for every address, makes no membership
// until the owner of the address accepts, and every member may leave.
describe.each(ENGINES)('member invitations on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { workers: false });
  });
  afterAll(() => ctx.close());

  let n = 0;
  // Same length for every address, so answers can be compared byte for byte.
  const address = (label: 'known' | 'ghost' | 'other') =>
    `${label}-${process.pid}-${Date.now()}-${String(n++).padStart(4, '0')}@example.com`;
  const as = (apiKey: string) => ({ 'x-api-key': apiKey });
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, apiKey?: string) =>
    ctx.app.inject({ method, url, headers: apiKey ? as(apiKey) : {} });
  const status = async (method: 'GET' | 'POST' | 'DELETE', url: string, apiKey?: string) =>
    (await call(method, url, apiKey)).statusCode;
  const viewed = async (token: string) =>
    (await call('GET', `/api/invitations/${token}`)).json().invitation.status;
  const invite = (apiKey: string, tenantId: string, email: string, role = 'member') =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/tenants/${tenantId}/members`,
      headers: as(apiKey),
      payload: { email, role },
    });

  /** The token of the newest invitation link e-mailed to an address (the dev mailbox). */
  async function linkTokenFor(email: string): Promise<string> {
    const row = await ctx.db.kysely
      .selectFrom('emails')
      .select('text')
      .where('to_address', '=', email)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const match = /\/invitations\/(iv_[A-Za-z0-9_-]{43})\b/.exec(row.text);
    if (!match) throw new Error('no invitation link in e-mail');
    return match[1];
  }

  async function ownedTenant() {
    const owner = await createUser(ctx, { name: 'Olga Owner' });
    const tenant = await createTenant(ctx, owner.apiKey, 'Acme Legal');
    return { owner, tenant, base: `/api/tenants/${tenant.id}` };
  }

  function normalized(res: LightMyRequestResponse, email: string) {
    const volatile = new Set(['x-request-id', 'date', 'ratelimit-remaining', 'ratelimit-reset']);
    const headers = Object.entries(res.headers).filter(([k]) => !volatile.has(k));
    const body = res.body
      .replaceAll(email, '<email>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>');
    return { status: res.statusCode, headers, body };
  }

  it('answers alike whether or not the address has an account, and adds nobody', async () => {
    const { owner, tenant, base } = await ownedTenant();
    const known = await createUser(ctx, { email: address('known') });
    const ghost = address('ghost');

    const toKnown = await invite(owner.apiKey, tenant.id, known.email);
    const toGhost = await invite(owner.apiKey, tenant.id, ghost);
    expect(toKnown.statusCode).toBe(202);
    expect(normalized(toKnown, known.email)).toEqual(normalized(toGhost, ghost));
    expect(toKnown.json().invitation).toEqual({
      id: expect.any(String),
      tenantId: tenant.id,
      email: known.email,
      role: 'member',
      invitedBy: owner.id,
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(JSON.stringify(toKnown.json())).not.toContain(known.id);
    const { createdAt, expiresAt } = toKnown.json().invitation;
    expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBe(7 * 24 * 3600_000);

    // Both addresses got the same e-mail; neither is a member before accepting.
    const subjects = await ctx.db.kysely
      .selectFrom('emails')
      .select('subject')
      .where('to_address', 'in', [known.email, ghost])
      .execute();
    expect(new Set(subjects.map((s) => s.subject)).size).toBe(1);
    const members = await call('GET', `${base}/members`, owner.apiKey);
    expect(members.json().members.map((m: { userId: string }) => m.userId)).toEqual([owner.id]);
    expect(await status('GET', base, known.apiKey)).toBe(404);

    // Only the token's hash is stored.
    const token = await linkTokenFor(known.email);
    const rows = await ctx.db.kysely.selectFrom('member_invitations').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('lets the invited, verified account accept, once, and nobody else', async () => {
    const { owner, tenant, base } = await ownedTenant();
    const invitee = await createUser(ctx, { email: address('known'), name: 'Ivan Invitee' });
    const other = await createUser(ctx, { email: address('other') });
    expect(
      (await invite(owner.apiKey, tenant.id, invitee.email.toUpperCase(), 'admin')).statusCode,
    ).toBe(202);
    const token = await linkTokenFor(invitee.email);

    const view = await call('GET', `/api/invitations/${token}`);
    expect(view.statusCode).toBe(200);
    expect(view.headers['cache-control']).toBe('no-store');
    expect(view.json()).toEqual({
      invitation: {
        tenantName: 'Acme Legal',
        inviterName: 'Olga Owner',
        email: invitee.email,
        role: 'admin',
        status: 'pending',
        expiresAt: expect.any(String),
      },
    });

    const byOther = await call('POST', `/api/invitations/${token}/accept`, other.apiKey);
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json().code).toBe('forbidden');
    expect(await status('POST', `/api/invitations/${token}/accept`)).toBe(401);

    const accepted = await call('POST', `/api/invitations/${token}/accept`, invitee.apiKey);
    expect(accepted.statusCode).toBe(200);
    const membership = accepted.json().membership;
    expect(membership).toMatchObject({ tenantId: tenant.id, userId: invitee.id, role: 'admin' });
    const again = await call('POST', `/api/invitations/${token}/accept`, invitee.apiKey);
    expect(again.statusCode).toBe(200);
    expect(again.json().membership).toEqual(membership);
    expect((await call('GET', base, invitee.apiKey)).json().membership).toEqual(membership);

    // Used: the link says so, and another account cannot reuse it.
    expect(await viewed(token)).toBe('accepted');
    expect(await status('POST', `/api/invitations/${token}/accept`, other.apiKey)).toBe(410);
    expect(await status('GET', '/api/invitations/iv_nosuchtokenatall')).toBe(404);
  });

  it('lists and revokes pending invitations; revoked, replaced and expired links are gone', async () => {
    const { owner, tenant, base } = await ownedTenant();
    const member = await createUser(ctx);
    const stranger = await createUser(ctx);
    const invitee = await createUser(ctx, { email: address('known') });
    await invite(owner.apiKey, tenant.id, member.email);
    await call(
      'POST',
      `/api/invitations/${await linkTokenFor(member.email)}/accept`,
      member.apiKey,
    );

    const first = (await invite(owner.apiKey, tenant.id, invitee.email)).json().invitation;
    const oldToken = await linkTokenFor(invitee.email);
    const second = (await invite(owner.apiKey, tenant.id, invitee.email, 'admin')).json()
      .invitation;
    const token = await linkTokenFor(invitee.email);
    expect(token).not.toBe(oldToken);
    const list = await call('GET', `${base}/invitations`, owner.apiKey);
    expect(list.json()).toEqual({ invitations: [second] });
    expect(first.id).not.toBe(second.id);
    expect(await status('GET', `${base}/invitations`, member.apiKey)).toBe(403);
    expect(await status('GET', `${base}/invitations`, stranger.apiKey)).toBe(404);
    const replaced = await call('POST', `/api/invitations/${oldToken}/accept`, invitee.apiKey);
    expect(replaced.statusCode).toBe(410);
    expect(replaced.json().code).toBe('invitation_expired');

    const url = `${base}/invitations/${second.id}`;
    expect(await status('DELETE', url, member.apiKey)).toBe(403);
    expect(await status('DELETE', url, owner.apiKey)).toBe(204);
    expect(await status('DELETE', url, owner.apiKey)).toBe(404);
    expect((await call('GET', `${base}/invitations`, owner.apiKey)).json().invitations).toEqual([]);
    expect(await viewed(token)).toBe('revoked');
    const revoked = await call('POST', `/api/invitations/${token}/accept`, invitee.apiKey);
    expect(revoked.statusCode).toBe(410);

    await invite(owner.apiKey, tenant.id, invitee.email);
    const late = await linkTokenFor(invitee.email);
    await ctx.db.kysely
      .updateTable('member_invitations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('email', '=', invitee.email)
      .where('status', '=', 'pending')
      .execute();
    expect(await viewed(late)).toBe('expired');
    expect(await status('POST', `/api/invitations/${late}/accept`, invitee.apiKey)).toBe(410);
    expect((await call('GET', `${base}/invitations`, owner.apiKey)).json().invitations).toEqual([]);
    expect(await status('GET', base, invitee.apiKey)).toBe(404);
  });

  it('requires verified e-mail and the right role to invite, and bounds invitations', async () => {
    const unverified = await createUser(ctx, { verified: false });
    const theirs = await createTenant(ctx, unverified.apiKey);
    const refused = await invite(unverified.apiKey, theirs.id, address('ghost'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('email_not_verified');

    const { owner, tenant } = await ownedTenant();
    const admin = await createUser(ctx);
    await invite(owner.apiKey, tenant.id, admin.email, 'admin');
    await call('POST', `/api/invitations/${await linkTokenFor(admin.email)}/accept`, admin.apiKey);
    expect((await invite(admin.apiKey, tenant.id, address('ghost'), 'owner')).statusCode).toBe(403);
    expect((await invite(owner.apiKey, tenant.id, admin.email)).statusCode).toBe(409);

    // An unverified invitee cannot accept, even with the right address.
    const late = await createUser(ctx, { verified: false, email: address('known') });
    await invite(owner.apiKey, tenant.id, late.email);
    const notYet = await call(
      'POST',
      `/api/invitations/${await linkTokenFor(late.email)}/accept`,
      late.apiKey,
    );
    expect(notYet.statusCode).toBe(403);
    expect(notYet.json().code).toBe('email_not_verified');

    // An inviter who loses the right to manage members withdraws their invitations.
    const target = address('ghost');
    await invite(admin.apiKey, tenant.id, target);
    const stale = await linkTokenFor(target);
    await ctx.app.inject({
      method: 'PATCH',
      url: `/api/tenants/${tenant.id}/members/${admin.id}`,
      headers: as(owner.apiKey),
      payload: { role: 'member' },
    });
    const targetUser = await createUser(ctx, { email: target });
    expect(
      (await call('POST', `/api/invitations/${stale}/accept`, targetUser.apiKey)).statusCode,
    ).toBe(410);

    // Concurrent invitations to one address leave exactly one pending (no 500 on PostgreSQL).
    const raced = address('ghost');
    const racing = await Promise.all([1, 2, 3].map(() => invite(owner.apiKey, tenant.id, raced)));
    expect(racing.map((r) => r.statusCode)).toEqual([202, 202, 202]);
    const listed = await call('GET', `/api/tenants/${tenant.id}/invitations`, owner.apiKey);
    expect(
      listed.json().invitations.filter((i: { email: string }) => i.email === raced),
    ).toHaveLength(1);

    // Five invitations to one address a day; fifty pending per tenant. The address's budget
    // across tenants (3 an hour, test/security/email-abuse.test.ts) is spread over the day
    // here, as if hours passed between the invitations.
    const spammed = address('ghost');
    for (let i = 0; i < 5; i++) {
      await ctx.db.kysely.deleteFrom('recipient_mail_limits').execute();
      expect((await invite(owner.apiKey, tenant.id, spammed)).statusCode).toBe(202);
    }
    const sixth = await invite(owner.apiKey, tenant.id, spammed);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('invitation_limit_reached');
    const pending = (
      await call('GET', `/api/tenants/${tenant.id}/invitations`, owner.apiKey)
    ).json().invitations.length;
    for (let i = pending; i < 50; i++) {
      expect((await invite(owner.apiKey, tenant.id, address('ghost'))).statusCode).toBe(202);
    }
    const over = await invite(owner.apiKey, tenant.id, address('ghost'));
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('invitation_limit_reached');
  });

  it('lets every member leave, except the last owner', async () => {
    const { owner, tenant, base } = await ownedTenant();
    const member = await createUser(ctx);
    const other = await createUser(ctx);
    for (const user of [member, other]) {
      await invite(owner.apiKey, tenant.id, user.email);
      await call('POST', `/api/invitations/${await linkTokenFor(user.email)}/accept`, user.apiKey);
    }
    expect(await status('DELETE', `${base}/members/${other.id}`, member.apiKey)).toBe(403);
    expect(await status('DELETE', `${base}/members/${member.id}`, member.apiKey)).toBe(204);
    expect(await status('GET', base, member.apiKey)).toBe(404);
    const lastOwner = await call('DELETE', `${base}/members/${owner.id}`, owner.apiKey);
    expect(lastOwner.statusCode).toBe(409);
    expect(lastOwner.json().code).toBe('conflict');
  });

  it('brings an address without an account in: sign up, verify, log in, accept', async () => {
    const { owner, tenant } = await ownedTenant();
    const email = address('ghost');
    await invite(owner.apiKey, tenant.id, email, 'admin');
    const token = await linkTokenFor(email);

    const password = 'a long enough password';
    const signup = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password, name: 'Nadia New' },
    });
    expect(signup.statusCode).toBe(201);
    const verify = `/verify-email?token=${await verificationTokenFor(ctx, email)}`;
    expect((await ctx.app.inject({ method: 'GET', url: verify })).statusCode).toBe(200);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
    });
    const cookie = login.cookies.find((c) => c.name === 'signet_session');
    const accepted = await ctx.app.inject({
      method: 'POST',
      url: `/api/invitations/${token}/accept`,
      headers: {
        cookie: `signet_session=${cookie?.value}`,
        origin: new URL(ctx.config.publicUrl).origin,
      },
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().membership).toMatchObject({
      tenantId: tenant.id,
      userId: signup.json().user.id,
      role: 'admin',
    });
  });
});
