import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';

const run = promisify(execFile);

describe.each(ENGINES)('tenants, members, settings and credits on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx.close());

  const as = (apiKey: string) => ({ 'x-api-key': apiKey });

  /** Accepts, as the user, the newest invitation e-mailed to their address (dev mailbox). */
  async function acceptInvitation(user: { email: string; apiKey: string }) {
    const mail = await ctx.db.kysely
      .selectFrom('emails')
      .select('text')
      .where('to_address', '=', user.email)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const token = /\/invitations\/(iv_[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    return ctx.app.inject({
      method: 'POST',
      url: `/api/invitations/${token}/accept`,
      headers: as(user.apiKey),
    });
  }

  it('creates tenants, lists them and answers the caller membership', async () => {
    const owner = await createUser(ctx);
    const tenant = await createTenant(ctx, owner.apiKey, 'Acme GmbH');
    expect(tenant).toMatchObject({ name: 'Acme GmbH', role: 'owner' });

    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/tenants',
      headers: as(owner.apiKey),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      tenants: [{ id: tenant.id, name: 'Acme GmbH', role: 'owner', createdAt: tenant.createdAt }],
    });

    const one = await ctx.app.inject({
      method: 'GET',
      url: `/api/tenants/${tenant.id}`,
      headers: as(owner.apiKey),
    });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({
      membership: {
        tenantId: tenant.id,
        userId: owner.id,
        role: 'owner',
        createdAt: tenant.createdAt,
      },
    });
  });

  it("answers 404 for another tenant's anything, never 403", async () => {
    const owner = await createUser(ctx);
    const stranger = await createUser(ctx);
    const tenant = await createTenant(ctx, owner.apiKey);
    for (const url of [
      `/api/tenants/${tenant.id}`,
      `/api/tenants/${tenant.id}/settings`,
      `/api/tenants/${tenant.id}/credits`,
      `/api/tenants/${tenant.id}/members`,
      `/api/tenants/${randomUUID()}`,
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: as(stranger.apiKey) });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    const patch = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/tenants/${tenant.id}/settings`,
      headers: as(stranger.apiKey),
      payload: { signeeEvents: true },
    });
    expect(patch.statusCode).toBe(404);
  });

  it('manages members and roles: members cannot manage, owners stay', async () => {
    const owner = await createUser(ctx);
    const admin = await createUser(ctx);
    const member = await createUser(ctx);
    const tenant = await createTenant(ctx, owner.apiKey);
    const base = `/api/tenants/${tenant.id}`;

    // Adding is inviting: nothing changes until the invitee accepts.
    const addAdmin = await ctx.app.inject({
      method: 'POST',
      url: `${base}/members`,
      headers: as(owner.apiKey),
      payload: { email: admin.email, role: 'admin' },
    });
    expect(addAdmin.statusCode).toBe(202);
    expect(addAdmin.json().invitation).toMatchObject({
      tenantId: tenant.id,
      email: admin.email,
      role: 'admin',
      invitedBy: owner.id,
    });
    expect(addAdmin.json().member).toBeUndefined();
    expect(
      (await ctx.app.inject({ method: 'GET', url: base, headers: as(admin.apiKey) })).statusCode,
    ).toBe(404);
    const accepted = await acceptInvitation(admin);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().membership).toMatchObject({ userId: admin.id, role: 'admin' });

    const addMember = await ctx.app.inject({
      method: 'POST',
      url: `${base}/members`,
      headers: as(admin.apiKey),
      payload: { email: member.email.toUpperCase(), role: 'member' },
    });
    expect(addMember.statusCode).toBe(202);
    expect(addMember.json().invitation.email).toBe(member.email);
    expect((await acceptInvitation(member)).statusCode).toBe(200);

    const dup = await ctx.app.inject({
      method: 'POST',
      url: `${base}/members`,
      headers: as(owner.apiKey),
      payload: { email: member.email, role: 'member' },
    });
    expect(dup.statusCode).toBe(409);

    // An address without an account is invited like any other: the answer does not tell.
    const nobody = await ctx.app.inject({
      method: 'POST',
      url: `${base}/members`,
      headers: as(owner.apiKey),
      payload: { email: 'nobody@example.com', role: 'member' },
    });
    expect(nobody.statusCode).toBe(202);
    expect(nobody.json().invitation.email).toBe('nobody@example.com');

    const memberTries = await ctx.app.inject({
      method: 'POST',
      url: `${base}/members`,
      headers: as(member.apiKey),
      payload: { email: owner.email, role: 'member' },
    });
    expect(memberTries.statusCode).toBe(403);
    expect(memberTries.json().code).toBe('forbidden');

    const adminMakesOwner = await ctx.app.inject({
      method: 'PATCH',
      url: `${base}/members/${member.id}`,
      headers: as(admin.apiKey),
      payload: { role: 'owner' },
    });
    expect(adminMakesOwner.statusCode).toBe(403);

    const memberRole = await ctx.app.inject({
      method: 'GET',
      url: base,
      headers: as(member.apiKey),
    });
    expect(memberRole.json().membership.role).toBe('member');

    const lastOwner = await ctx.app.inject({
      method: 'DELETE',
      url: `${base}/members/${owner.id}`,
      headers: as(owner.apiKey),
    });
    expect(lastOwner.statusCode).toBe(409);

    const remove = await ctx.app.inject({
      method: 'DELETE',
      url: `${base}/members/${member.id}`,
      headers: as(admin.apiKey),
    });
    expect(remove.statusCode).toBe(204);
    const gone = await ctx.app.inject({ method: 'GET', url: base, headers: as(member.apiKey) });
    expect(gone.statusCode).toBe(404);

    const list = await ctx.app.inject({
      method: 'GET',
      url: `${base}/members`,
      headers: as(admin.apiKey),
    });
    expect(
      list
        .json()
        .members.map((m: { role: string }) => m.role)
        .sort(),
    ).toEqual(['admin', 'owner']);
  });

  it('reads and changes settings with validation; only owners and admins change them', async () => {
    const owner = await createUser(ctx);
    const member = await createUser(ctx);
    const tenant = await createTenant(ctx, owner.apiKey);
    const url = `/api/tenants/${tenant.id}/settings`;
    await ctx.app.inject({
      method: 'POST',
      url: `/api/tenants/${tenant.id}/members`,
      headers: as(owner.apiKey),
      payload: { email: member.email, role: 'member' },
    });
    expect((await acceptInvitation(member)).statusCode).toBe(200);

    const initial = await ctx.app.inject({ method: 'GET', url, headers: as(member.apiKey) });
    expect(initial.json()).toEqual({
      settings: {
        emailLanguage: 'en',
        invitationEmails: true,
        signeeEvents: false,
        webhookEvents: [],
        reminderCooldownMinutes: 60,
        expiryDays: null,
        reminderFirstAfterDays: null,
        reminderEveryDays: null,
        reminderMax: 3,
        embedOrigins: [],
        brandName: null,
        brandColor: null,
      },
    });

    const bad = await ctx.app.inject({
      method: 'PATCH',
      url,
      headers: as(owner.apiKey),
      payload: { emailLanguage: 'xx', reminderCooldownMinutes: -1 },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.length).toBe(2);

    const byMember = await ctx.app.inject({
      method: 'PATCH',
      url,
      headers: as(member.apiKey),
      payload: { signeeEvents: true },
    });
    expect(byMember.statusCode).toBe(403);

    const ok = await ctx.app.inject({
      method: 'PATCH',
      url,
      headers: as(owner.apiKey),
      payload: { emailLanguage: 'de', signeeEvents: true, invitationEmails: false },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().settings).toEqual({
      emailLanguage: 'de',
      invitationEmails: false,
      signeeEvents: true,
      webhookEvents: [],
      reminderCooldownMinutes: 60,
      expiryDays: null,
      reminderFirstAfterDays: null,
      reminderEveryDays: null,
      reminderMax: 3,
      embedOrigins: [],
      brandName: null,
      brandColor: null,
    });
    const reread = await ctx.app.inject({ method: 'GET', url, headers: as(owner.apiKey) });
    expect(reread.json()).toEqual(ok.json());
  });

  it('starts sandbox tenants with 1000 credits and grants more with signet credits grant', async () => {
    const owner = await createUser(ctx);
    const tenant = await createTenant(ctx, owner.apiKey);
    const url = `/api/tenants/${tenant.id}/credits`;
    const before = await ctx.app.inject({ method: 'GET', url, headers: as(owner.apiKey) });
    expect(before.json()).toEqual({ balance: 1000 });

    const env = {
      ...process.env,
      DATA_DIR: ctx.config.dataDir,
      ...(ctx.config.databaseUrl ? { DATABASE_URL: ctx.config.databaseUrl } : {}),
    };
    const { stdout } = await run('node', ['bin/signet.mjs', 'credits', 'grant', tenant.id, '250'], {
      env,
    });
    expect(stdout).toContain('balance 1250');
    const after = await ctx.app.inject({ method: 'GET', url, headers: as(owner.apiKey) });
    expect(after.json()).toEqual({ balance: 1250 });

    const bad = await run('node', ['bin/signet.mjs', 'credits', 'grant', randomUUID(), '5'], {
      env,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('No tenant');
  });
});
