import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { insertMember } from '../helpers/db-factories.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenantViaHttp, createUser, type TestUser } from '../helpers/factories.js';
import { createTemplate } from '../helpers/templates.js';
import { smallPngLogo } from './logo-files.js';

type Entry = {
  id: string;
  action: string;
  actor: { userId: string; email: string; apiKeyId: string | null };
  ip: string | null;
  details: Record<string, unknown>;
  createdAt: string;
};

describe.each(ENGINES)('tenant activity log on %s', (engine) => {
  let ctx: TestContext;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let tenantId: string;
  // Every secret the service handed out during the tests: none may appear in any entry.
  const secrets: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      listen: true,
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    owner = await createUser(ctx, { name: 'Olivia Owner' });
    admin = await createUser(ctx);
    member = await createUser(ctx);
    outsider = await createUser(ctx);
    secrets.push(owner.apiKey, admin.apiKey, member.apiKey);
    tenantId = (await createTenantViaHttp(ctx, owner.apiKey, 'Activity Ltd')).id;
    await insertMember(ctx, tenantId, admin.id, 'admin');
    await insertMember(ctx, tenantId, member.id, 'member');
  });
  afterAll(() => ctx?.close());

  const url = (query = '') => `/api/tenants/${tenantId}/activity${query}`;

  async function allEntries(): Promise<Entry[]> {
    const res = await api(ctx, admin.apiKey, 'GET', url('?limit=100'));
    expect(res.status).toBe(200);
    return res.body.activity;
  }

  /** Runs a change and answers the entries it wrote (newest first). */
  async function entriesOf(change: () => Promise<unknown>): Promise<Entry[]> {
    const before = new Set((await allEntries()).map((e) => e.id));
    await change();
    return (await allEntries()).filter((e) => !before.has(e.id));
  }

  /** Runs a change that must write exactly one entry, of `action`, by `by`; answers it. */
  async function oneEntry(action: string, change: () => Promise<unknown>, by = owner) {
    const entries = await entriesOf(change);
    expect(entries.map((e) => e.action)).toEqual([action]);
    const [entry] = entries;
    expect(entry.actor).toEqual({ userId: by.id, email: by.email, apiKeyId: by.apiKeyId });
    expect(entry.ip).toBe('127.0.0.1');
    return entry;
  }

  async function ok<T extends { status: number }>(call: Promise<T>, status: number): Promise<T> {
    const res = await call;
    expect(res.status).toBe(status);
    return res;
  }

  it('starts with the tenant made by its owner', async () => {
    const entries = await allEntries();
    expect(entries.map((e) => e.action)).toEqual(['tenant.created']);
    expect(entries[0].details).toEqual({ name: 'Activity Ltd' });
  });

  it('records invitations, joining, role changes and removals', async () => {
    const newcomer = await createUser(ctx);
    const invited = await oneEntry('invitation.created', () =>
      ok(
        api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenantId}/members`, {
          email: newcomer.email,
          role: 'member',
        }),
        202,
      ),
    );
    expect(invited.details).toMatchObject({ email: newcomer.email, role: 'member' });
    const { text } = await ctx.db.kysely
      .selectFrom('emails')
      .select('text')
      .where('to_address', '=', newcomer.email)
      .executeTakeFirstOrThrow();
    const token = /\/invitations\/(iv_[\w-]+)/.exec(text)![1];
    secrets.push(token);
    const joined = await oneEntry(
      'member.added',
      () => ok(api(ctx, newcomer.apiKey, 'POST', `/api/invitations/${token}/accept`), 200),
      newcomer,
    );
    expect(joined.details).toEqual({
      invitationId: invited.details.invitationId,
      userId: newcomer.id,
      email: newcomer.email,
      role: 'member',
    });
    const memberUrl = `/api/tenants/${tenantId}/members/${newcomer.id}`;
    const promoted = await oneEntry(
      'member.role_changed',
      () => ok(api(ctx, admin.apiKey, 'PATCH', memberUrl, { role: 'admin' }), 200),
      admin,
    );
    expect(promoted.details).toEqual({
      userId: newcomer.id,
      email: newcomer.email,
      from: 'member',
      to: 'admin',
    });
    // The same role again changes nothing and writes nothing.
    expect(
      await entriesOf(() => ok(api(ctx, owner.apiKey, 'PATCH', memberUrl, { role: 'admin' }), 200)),
    ).toEqual([]);
    const removed = await oneEntry('member.removed', () =>
      ok(api(ctx, owner.apiKey, 'DELETE', memberUrl), 204),
    );
    expect(removed.details).toEqual({
      userId: newcomer.id,
      email: newcomer.email,
      role: 'admin',
      left: false,
    });

    const other = await api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenantId}/members`, {
      email: 'later@example.com',
      role: 'admin',
    });
    const revoked = await oneEntry('invitation.revoked', () =>
      ok(
        api(
          ctx,
          owner.apiKey,
          'DELETE',
          `/api/tenants/${tenantId}/invitations/${other.body.invitation.id}`,
        ),
        204,
      ),
    );
    expect(revoked.details).toEqual({
      invitationId: other.body.invitation.id,
      email: 'later@example.com',
      role: 'admin',
    });
  });

  it('records webhooks made, changed, rotated and deleted, never their secrets', async () => {
    const hooks = `/api/tenants/${tenantId}/webhooks`;
    let created: { body: { webhook: { id: string }; secret: string } } | undefined;
    const made = await oneEntry('webhook.created', async () => {
      created = await ok(
        api(ctx, owner.apiKey, 'POST', hooks, { url: 'http://127.0.0.1:9/a' }),
        201,
      );
    });
    const id = created!.body.webhook.id;
    secrets.push(created!.body.secret);
    expect(made.details).toEqual({ webhookId: id, url: 'http://127.0.0.1:9/a', active: true });
    const changed = await oneEntry('webhook.updated', () =>
      ok(api(ctx, owner.apiKey, 'PATCH', `${hooks}/${id}`, { active: false }), 200),
    );
    expect(changed.details).toEqual({
      webhookId: id,
      changes: { active: { from: true, to: false } },
    });
    const rotated = await oneEntry('webhook.secret_rotated', async () => {
      const res = await ok(api(ctx, owner.apiKey, 'POST', `${hooks}/${id}/rotate-secret`), 200);
      secrets.push(res.body.secret);
    });
    expect(rotated.details).toEqual({ webhookId: id, url: 'http://127.0.0.1:9/a' });
    await oneEntry('webhook.deleted', () =>
      ok(api(ctx, owner.apiKey, 'DELETE', `${hooks}/${id}`), 204),
    );
  });

  it('records the settings a patch changed, old and new, and nothing for no change', async () => {
    const settings = `/api/tenants/${tenantId}/settings`;
    const entry = await oneEntry('settings.updated', () =>
      ok(
        api(ctx, owner.apiKey, 'PATCH', settings, {
          emailLanguage: 'de',
          brandName: 'Acme',
          invitationEmails: true,
        }),
        200,
      ),
    );
    expect(entry.details).toEqual({
      changes: { emailLanguage: { from: 'en', to: 'de' }, brandName: { from: null, to: 'Acme' } },
    });
    expect(
      await entriesOf(() =>
        ok(api(ctx, owner.apiKey, 'PATCH', settings, { brandName: 'Acme' }), 200),
      ),
    ).toEqual([]);
  });

  it('records the logo put and removed', async () => {
    const logo = await smallPngLogo();
    const put = await oneEntry('logo.updated', async () => {
      const res = await fetch(`${ctx.baseUrl}/api/tenants/${tenantId}/logo`, {
        method: 'PUT',
        headers: { 'x-api-key': owner.apiKey, 'content-type': 'image/png' },
        body: new Uint8Array(logo),
      });
      expect(res.status).toBe(200);
    });
    expect(Object.keys(put.details).sort()).toEqual(['height', 'width']);
    const logoUrl = `/api/tenants/${tenantId}/logo`;
    await oneEntry('logo.removed', () => ok(api(ctx, owner.apiKey, 'DELETE', logoUrl), 204));
    // Removing no logo is no change.
    expect(await entriesOf(() => ok(api(ctx, owner.apiKey, 'DELETE', logoUrl), 204))).toEqual([]);
  });

  it('records identity keys added and removed by kid, never the key', async () => {
    const keys = `/api/tenants/${tenantId}/identity-keys`;
    const pair = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'crm-2026' };
    secrets.push(jwk.x!, jwk.y!);
    const added = await oneEntry('identity_keys.updated', () =>
      ok(api(ctx, owner.apiKey, 'PUT', keys, { keys: [jwk] }), 200),
    );
    expect(added.details).toEqual({
      added: ['crm-2026'],
      removed: [],
      replaced: [],
      keys: ['crm-2026'],
    });
    const removed = await oneEntry('identity_keys.updated', () =>
      ok(api(ctx, owner.apiKey, 'PUT', keys, { keys: [] }), 200),
    );
    expect(removed.details).toMatchObject({ added: [], removed: ['crm-2026'] });
  });

  it('records templates made, changed and deleted, by a member too', async () => {
    let templateId = '';
    const made = await oneEntry(
      'template.created',
      async () => {
        const res = await createTemplate(ctx, member.apiKey, { tenantId });
        expect(res.status).toBe(201);
        templateId = res.body.template.id;
      },
      member,
    );
    expect(made.details).toEqual({ templateId, name: 'Lease', roles: ['Tenant', 'Landlord'] });
    const changed = await oneEntry(
      'template.updated',
      () =>
        ok(api(ctx, member.apiKey, 'PATCH', `/api/templates/${templateId}`, { name: 'Rent' }), 200),
      member,
    );
    expect(changed.details).toEqual({
      templateId,
      name: 'Rent',
      changes: { name: { from: 'Lease', to: 'Rent' } },
    });
    const deleted = await oneEntry(
      'template.deleted',
      () => ok(api(ctx, member.apiKey, 'DELETE', `/api/templates/${templateId}`), 204),
      member,
    );
    expect(deleted.details).toEqual({ templateId, name: 'Rent' });
  });

  it("records API keys its members make and revoke, in each of the member's tenants", async () => {
    const second = (await createTenantViaHttp(ctx, member.apiKey, 'Side project')).id;
    const session = { cookie: member.cookie, origin: new URL(ctx.config.publicUrl).origin };
    let created: { id: string; secret: string } = { id: '', secret: '' };
    const bySession = { ...member, apiKeyId: null } as unknown as TestUser;
    const made = await oneEntry(
      'api_key.created',
      async () => {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/account/api-keys',
          headers: session,
          payload: { name: 'CI' },
        });
        expect(res.statusCode).toBe(201);
        created = { id: res.json().apiKey.id, secret: res.json().secret };
        secrets.push(created.secret);
      },
      bySession,
    );
    expect(made.details).toEqual({ apiKeyId: created.id, name: 'CI', environment: 'sandbox' });
    const inSecond = await api(ctx, member.apiKey, 'GET', `/api/tenants/${second}/activity`);
    expect(inSecond.body.activity.map((e: Entry) => e.action)).toEqual([
      'api_key.created',
      'tenant.created',
    ]);
    await oneEntry(
      'api_key.revoked',
      async () => {
        const res = await ctx.app.inject({
          method: 'DELETE',
          url: `/api/account/api-keys/${created.id}`,
          headers: session,
        });
        expect(res.statusCode).toBe(204);
      },
      bySession,
    );
  });

  it('records a member leaving, with the member as actor', async () => {
    const leaver = await createUser(ctx);
    await insertMember(ctx, tenantId, leaver.id, 'member');
    const left = await oneEntry(
      'member.removed',
      () =>
        ok(api(ctx, leaver.apiKey, 'DELETE', `/api/tenants/${tenantId}/members/${leaver.id}`), 204),
      leaver,
    );
    expect(left.details).toEqual({
      userId: leaver.id,
      email: leaver.email,
      role: 'member',
      left: true,
    });
  });

  it('records a webhook URL change, a draft saved as a template and its fields replaced', async () => {
    const hooks = `/api/tenants/${tenantId}/webhooks`;
    const hook = await ok(
      api(ctx, owner.apiKey, 'POST', hooks, { url: 'http://127.0.0.1:9/b' }),
      201,
    );
    secrets.push(hook.body.secret);
    const moved = await oneEntry('webhook.updated', () =>
      ok(
        api(ctx, owner.apiKey, 'PATCH', `${hooks}/${hook.body.webhook.id}`, {
          url: 'http://127.0.0.1:9/c',
        }),
        200,
      ),
    );
    expect(moved.details.changes).toEqual({
      url: { from: 'http://127.0.0.1:9/b', to: 'http://127.0.0.1:9/c' },
    });

    const draft = await quickCreate(ctx, owner.apiKey, { tenantId });
    expect(draft.status).toBe(201);
    let template = { id: '', roles: [{ id: '' }] };
    const saved = await oneEntry('template.created', async () => {
      const res = await ok(
        api(
          ctx,
          owner.apiKey,
          'POST',
          `/api/documents/${draft.body.document.id}/save-as-template`,
          {
            name: 'Saved',
          },
        ),
        201,
      );
      template = res.body.template;
    });
    expect(saved.details).toMatchObject({
      templateId: template.id,
      name: 'Saved',
      documentId: draft.body.document.id,
    });
    const field = {
      roleId: template.roles[0].id,
      type: 'signature',
      page: 1,
      x: 72,
      y: 400,
      width: 150,
      height: 40,
    };
    const placed = await oneEntry('template.updated', () =>
      ok(
        api(ctx, owner.apiKey, 'PUT', `/api/templates/${template.id}/fields`, { fields: [field] }),
        200,
      ),
    );
    expect(placed.details).toEqual({
      templateId: template.id,
      name: 'Saved',
      changes: { fields: { from: 0, to: 1 } },
    });
    // A field refused (a page the PDF lacks) changes nothing and writes nothing.
    expect(
      await entriesOf(() =>
        ok(
          api(ctx, owner.apiKey, 'PUT', `/api/templates/${template.id}/fields`, {
            fields: [{ ...field, page: 99 }],
          }),
          422,
        ),
      ),
    ).toEqual([]);
  });

  it('writes nothing for a refused change', async () => {
    const refused = await entriesOf(async () => {
      await ok(
        api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenantId}/webhooks`, { url: 'ftp://x' }),
        422,
      );
      await ok(
        api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
          brandColor: 'red',
        }),
        422,
      );
      await ok(
        api(ctx, owner.apiKey, 'PUT', `/api/tenants/${tenantId}/identity-keys`, {
          keys: [{ kty: 'EC', kid: 'bad', crv: 'P-256', x: 'AA', y: 'AA', d: 'AA' }],
        }),
        422,
      );
      await ok(
        api(ctx, member.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
          emailLanguage: 'fr',
        }),
        403,
      );
      await ok(
        api(ctx, owner.apiKey, 'DELETE', `/api/tenants/${tenantId}/members/${owner.id}`),
        409,
      );
    });
    expect(refused).toEqual([]);
  });

  it('is for owners and admins: a member 403, an outsider 404, a bad cursor 422', async () => {
    const forbidden = await api(ctx, member.apiKey, 'GET', url());
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('forbidden');
    expect(forbidden.headers.get('content-type')).toContain('application/problem+json');
    expect((await api(ctx, outsider.apiKey, 'GET', url())).status).toBe(404);
    const badCursor = await api(ctx, owner.apiKey, 'GET', url('?cursor=nonsense'));
    expect(badCursor.status).toBe(422);
    expect(badCursor.headers.get('content-type')).toContain('application/problem+json');
    expect(badCursor.body.errors[0].path).toBe('querystring.cursor');
    expect((await api(ctx, owner.apiKey, 'GET', url('?limit=101'))).status).toBe(422);
  });

  it('pages newest first with a cursor over more entries than a page', async () => {
    for (let minutes = 61; minutes <= 90; minutes++) {
      await ok(
        api(ctx, admin.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
          reminderCooldownMinutes: minutes,
        }),
        200,
      );
    }
    const seen: Entry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=7${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await api(ctx, owner.apiKey, 'GET', url(query));
      expect(res.status).toBe(200);
      expect(res.body.activity.length).toBeLessThanOrEqual(7);
      seen.push(...res.body.activity);
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    const count = await ctx.db.kysely
      .selectFrom('tenant_activity')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow();
    expect(seen.length).toBe(Number(count.n));
    expect(pages).toBe(Math.ceil(seen.length / 7));
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    const keys = seen.map((e) => `${e.createdAt} ${e.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
    // The newest thirty are the patches, the last one first.
    const cooldowns = seen
      .slice(0, 30)
      .map((e) => e.details.changes as { reminderCooldownMinutes: { to: number } })
      .map((c) => c.reminderCooldownMinutes.to);
    expect(cooldowns).toEqual(Array.from({ length: 30 }, (_, i) => 90 - i));
    expect(seen.at(-1)!.action).toBe('tenant.created');
  });

  it('keeps every secret out of every entry', async () => {
    const rows = await ctx.db.kysely.selectFrom('tenant_activity').select('details').execute();
    expect(rows.length).toBeGreaterThan(10);
    const all = rows.map((r) => r.details).join('\n');
    expect(secrets.length).toBeGreaterThan(6);
    for (const secret of secrets) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/sk_(test|live)_|whsec_|iv_/);
  });
});
