import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { TEST_PASSWORD } from '../helpers/db-factories.js';
import {
  addMemberByInvitation,
  createTenant,
  createUser,
  createUserViaHttp,
  uniqueEmail,
} from '../helpers/factories.js';

// Sign-up makes the account's first tenant (a "workspace" in the dashboard) in its own
// transaction, as POST /api/tenants makes one; PATCH /api/tenants/{id} renames it.
describe.each(ENGINES)('the first tenant made at sign-up on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx?.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, apiKey: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: { 'x-api-key': apiKey }, payload });
  const signUp = (payload: Record<string, unknown>) =>
    ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload });
  const tenantsOf = async (apiKey: string) =>
    (await call('GET', '/api/tenants', apiKey)).json().tenants as {
      id: string;
      name: string;
      role: string;
    }[];
  const activity = async (apiKey: string, tenantId: string) =>
    (await call('GET', `/api/tenants/${tenantId}/activity`, apiKey)).json().activity as {
      action: string;
      details: Record<string, unknown>;
    }[];

  it('names it after the person without a company name, with the defaults of POST /api/tenants', async () => {
    const user = await createUserViaHttp(ctx, { name: 'Ada Lovelace' });
    const tenants = await tenantsOf(user.apiKey);
    expect(tenants).toEqual([
      expect.objectContaining({ name: "Ada Lovelace's workspace", role: 'owner' }),
    ]);
    const [first] = tenants;
    // The same start as a tenant made through the API.
    const made = await call('POST', '/api/tenants', user.apiKey, { name: 'Made by API' });
    expect(made.statusCode).toBe(201);
    for (const id of [first.id, made.json().tenant.id]) {
      expect((await call('GET', `/api/tenants/${id}/credits`, user.apiKey)).json()).toEqual({
        balance: 1000,
      });
    }
    const settings = (id: string) =>
      call('GET', `/api/tenants/${id}/settings`, user.apiKey).then((r) => r.json().settings);
    expect(await settings(first.id)).toEqual(await settings(made.json().tenant.id));
    expect((await tenantsOf(user.apiKey)).map((t) => t.name)).toEqual([
      "Ada Lovelace's workspace",
      'Made by API',
    ]);
    const entries = await activity(user.apiKey, first.id);
    expect(entries.map((e) => e.action)).toContain('tenant.created');
  });

  it('names it after the company given, trimmed', async () => {
    const email = uniqueEmail('company');
    const res = await signUp({
      email,
      password: TEST_PASSWORD,
      name: 'Grace Hopper',
      tenantName: '  Hopper & Co  ',
    });
    expect(res.statusCode).toBe(201);
    expect(Object.keys(res.json())).toEqual(['user']);
    const rows = await ctx.db.kysely
      .selectFrom('memberships')
      .innerJoin('tenants', 'tenants.id', 'memberships.tenant_id')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['tenants.name', 'memberships.role'])
      .where('users.email', '=', email)
      .execute();
    expect(rows).toEqual([{ name: 'Hopper & Co', role: 'owner' }]);
  });

  it('shortens a long name to fit, and makes nothing for an address that has an account', async () => {
    const long = 'N'.repeat(200);
    const user = await createUserViaHttp(ctx, { name: long });
    const [tenant] = await tenantsOf(user.apiKey);
    expect(tenant.name).toBe(`${'N'.repeat(188)}'s workspace`);
    expect(tenant.name).toHaveLength(200);
    const again = await signUp({
      email: user.email,
      password: TEST_PASSWORD,
      name: 'Someone Else',
      tenantName: 'Takeover Ltd',
    });
    expect(again.statusCode).toBe(201);
    expect(await tenantsOf(user.apiKey)).toHaveLength(1);
    const named = await ctx.db.kysely
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', 'Takeover Ltd')
      .execute();
    expect(named).toEqual([]);
  });

  it('refuses a blank or too long company name with 422, creating nothing', async () => {
    for (const tenantName of ['', '   ', 'x'.repeat(201), 42]) {
      const email = uniqueEmail('bad-company');
      const res = await signUp({ email, password: TEST_PASSWORD, name: 'Bad Name', tenantName });
      expect(res.statusCode, String(tenantName)).toBe(422);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual(['body.tenantName']);
      const user = await ctx.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst();
      expect(user).toBeUndefined();
    }
  });

  it('renames for owners and admins, 403 for a member, 404 for others, 422 for a bad name', async () => {
    const owner = await createUser(ctx);
    const admin = await createUser(ctx);
    const member = await createUser(ctx);
    const stranger = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey, 'Old Name')).id;
    await addMemberByInvitation(ctx, owner.apiKey, tenantId, admin, 'admin');
    await addMemberByInvitation(ctx, owner.apiKey, tenantId, member, 'member');
    const rename = (apiKey: string, payload: object) =>
      call('PATCH', `/api/tenants/${tenantId}`, apiKey, payload);

    const renamed = await rename(owner.apiKey, { name: '  New Name  ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().tenant).toMatchObject({ id: tenantId, name: 'New Name', role: 'owner' });
    const byAdmin = await rename(admin.apiKey, { name: 'Admin Name' });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().tenant).toMatchObject({ name: 'Admin Name', role: 'admin' });
    expect((await tenantsOf(member.apiKey)).find((t) => t.id === tenantId)?.name).toBe(
      'Admin Name',
    );

    const byMember = await rename(member.apiKey, { name: 'Member Name' });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().code).toBe('forbidden');
    expect((await rename(stranger.apiKey, { name: 'Stranger' })).statusCode).toBe(404);
    for (const payload of [{ name: '' }, { name: '  ' }, { name: 'x'.repeat(201) }, {}]) {
      const bad = await rename(owner.apiKey, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(422);
      expect(bad.json().errors[0].path).toBe('body.name');
    }
    expect((await tenantsOf(owner.apiKey)).find((t) => t.id === tenantId)?.name).toBe('Admin Name');

    // Each real rename is in the activity log with the old and new names; the same name is not.
    expect((await rename(owner.apiKey, { name: 'Admin Name' })).statusCode).toBe(200);
    const renames = (await activity(owner.apiKey, tenantId)).filter(
      (e) => e.action === 'tenant.renamed',
    );
    expect(renames.map((e) => e.details)).toEqual([
      { from: 'New Name', to: 'Admin Name' },
      { from: 'Old Name', to: 'New Name' },
    ]);
  });
});
