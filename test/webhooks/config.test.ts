import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptWebhookSecret } from '../../server/src/modules/webhooks/webhook-secret.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { addMemberByInvitation, createUser } from '../helpers/factories.js';
import { setupTenant, triggerDocumentEvent, WEBHOOK_TEST_ENV } from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

describe.each(ENGINES)('webhook configuration on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { env: WEBHOOK_TEST_ENV });
  });
  afterAll(() => ctx.close());

  const as = (apiKey: string) => ({ 'x-api-key': apiKey });

  it('creates several webhooks; the secret appears on create and rotate only', async () => {
    const { owner, tenant } = await setupTenant(ctx);
    const base = `/api/tenants/${tenant.id}/webhooks`;
    const first = await ctx.app.inject({
      method: 'POST',
      url: base,
      headers: as(owner.apiKey),
      payload: { url: 'https://hooks.example.com/signet' },
    });
    expect(first.statusCode).toBe(201);
    const created = first.json();
    expect(created).toEqual({
      webhook: {
        id: expect.any(String),
        url: 'https://hooks.example.com/signet',
        active: true,
        createdAt: expect.any(String),
      },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    const second = await ctx.app.inject({
      method: 'POST',
      url: base,
      headers: as(owner.apiKey),
      payload: { url: 'http://127.0.0.1:9/other', active: false },
    });
    expect(second.statusCode).toBe(201);
    expect(second.json().webhook.active).toBe(false);

    const list = await ctx.app.inject({ method: 'GET', url: base, headers: as(owner.apiKey) });
    expect(list.statusCode).toBe(200);
    expect(list.json().webhooks).toEqual([created.webhook, second.json().webhook]);
    expect(list.body).not.toContain('whsec_');
    const one = await ctx.app.inject({
      method: 'GET',
      url: `${base}/${created.webhook.id}`,
      headers: as(owner.apiKey),
    });
    expect(one.json()).toEqual({ webhook: created.webhook });

    // Stored encrypted (the server must sign, so not hashed), never in plain text.
    const row = await ctx.db.kysely
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', created.webhook.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));
    expect(row.secret_encrypted).toMatch(/^v1\./);
    expect(decryptWebhookSecret(ctx.config.secretKey, row.id, row.secret_encrypted)).toBe(
      created.secret,
    );
    // Bound to its row: the ciphertext does not decrypt as another webhook's secret.
    expect(() =>
      decryptWebhookSecret(ctx.config.secretKey, second.json().webhook.id, row.secret_encrypted),
    ).toThrow();

    const rotated = await ctx.app.inject({
      method: 'POST',
      url: `${base}/${created.webhook.id}/rotate-secret`,
      headers: as(owner.apiKey),
    });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().webhook).toEqual(created.webhook);
    expect(rotated.json().secret).toMatch(/^whsec_/);
    expect(rotated.json().secret).not.toBe(created.secret);
  });

  it('changes url and active, deletes, and validates the body', async () => {
    const { owner, tenant } = await setupTenant(ctx);
    const base = `/api/tenants/${tenant.id}/webhooks`;
    const { webhook } = (
      await ctx.app.inject({
        method: 'POST',
        url: base,
        headers: as(owner.apiKey),
        payload: { url: 'https://a.example.com/' },
      })
    ).json();
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: `${base}/${webhook.id}`,
      headers: as(owner.apiKey),
      payload: { url: 'https://b.example.com/hook', active: false },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().webhook).toEqual({
      ...webhook,
      url: 'https://b.example.com/hook',
      active: false,
    });
    for (const payload of [{}, { secret: 'x' }, { active: 'yes' }, { url: '' }]) {
      const bad = await ctx.app.inject({
        method: 'PATCH',
        url: `${base}/${webhook.id}`,
        headers: as(owner.apiKey),
        payload,
      });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(422);
      expect(bad.headers['content-type']).toContain('application/problem+json');
    }
    for (const url of ['not a url', 'ftp://example.com/x', 'https://user:pw@example.com/']) {
      const bad = await ctx.app.inject({
        method: 'POST',
        url: base,
        headers: as(owner.apiKey),
        payload: { url },
      });
      expect(bad.statusCode, url).toBe(422);
      expect(bad.json().errors[0].path).toBe('body.url');
    }
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `${base}/${webhook.id}`,
      headers: as(owner.apiKey),
    });
    expect(del.statusCode).toBe(204);
    const gone = await ctx.app.inject({
      method: 'GET',
      url: `${base}/${webhook.id}`,
      headers: as(owner.apiKey),
    });
    expect(gone.statusCode).toBe(404);
  });

  it('is for owners and admins: members get 403, strangers 404, other tenants 404', async () => {
    const { owner, tenant } = await setupTenant(ctx);
    const admin = await createUser(ctx);
    const member = await createUser(ctx);
    const stranger = await createUser(ctx);
    for (const [user, role] of [
      [admin, 'admin'],
      [member, 'member'],
    ] as const) {
      const added = await addMemberByInvitation(ctx, owner.apiKey, tenant.id, user, role);
      expect(added.membership.role).toBe(role);
    }
    const base = `/api/tenants/${tenant.id}/webhooks`;
    const byAdmin = await ctx.app.inject({
      method: 'POST',
      url: base,
      headers: as(admin.apiKey),
      payload: { url: 'https://hooks.example.com/' },
    });
    expect(byAdmin.statusCode).toBe(201);
    const id = byAdmin.json().webhook.id;
    const other = await setupTenant(ctx);
    const requests = [
      { method: 'GET', url: base },
      { method: 'POST', url: base, payload: { url: 'https://x.example.com/' } },
      { method: 'GET', url: `${base}/${id}` },
      { method: 'PATCH', url: `${base}/${id}`, payload: { active: false } },
      { method: 'DELETE', url: `${base}/${id}` },
      { method: 'POST', url: `${base}/${id}/rotate-secret` },
      { method: 'GET', url: `${base}/${id}/deliveries` },
      { method: 'POST', url: `${base}/${id}/deliveries/${randomUUID()}/redeliver` },
    ] as const;
    for (const request of requests) {
      const byMember = await ctx.app.inject({ ...request, headers: as(member.apiKey) });
      expect(byMember.statusCode, `member ${request.method} ${request.url}`).toBe(403);
      const byStranger = await ctx.app.inject({ ...request, headers: as(stranger.apiKey) });
      expect(byStranger.statusCode, `stranger ${request.method} ${request.url}`).toBe(404);
      expect(byStranger.json().code).toBe('not_found');
      // The other tenant's owner is an owner, but not of this tenant.
      const byOtherOwner = await ctx.app.inject({ ...request, headers: as(other.owner.apiKey) });
      expect(byOtherOwner.statusCode).toBe(404);
    }
    // A webhook id of tenant A under tenant B's path is not found either.
    const crossed = await ctx.app.inject({
      method: 'GET',
      url: `/api/tenants/${other.tenant.id}/webhooks/${id}`,
      headers: as(other.owner.apiKey),
    });
    expect(crossed.statusCode).toBe(404);
    const unauthenticated = await ctx.app.inject({ method: 'GET', url: base });
    expect(unauthenticated.statusCode).toBe(401);
  });
});

describe('webhook URL rules with WEBHOOK_ALLOW_PRIVATE_URLS=false', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Set: a sandbox on this machine would otherwise allow loopback (the next describe).
    ctx = await createTestContext('sqlite', { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
  });
  afterAll(() => ctx.close());

  it('refuses http:, credentials and non-public hosts at save time with 422', async () => {
    const { owner, tenant } = await setupTenant(ctx);
    const refused = [
      'http://93.184.216.34/hook',
      'https://user:secret@93.184.216.34/hook',
      'https://127.0.0.1/hook',
      'https://127.1/hook',
      'https://0x7f000001/hook',
      'https://localhost/hook',
      'https://localhost:8443/hook',
      'https://10.1.2.3/hook',
      'https://172.16.0.1/hook',
      'https://192.168.1.1/hook',
      'https://100.64.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://0.0.0.0/hook',
      'https://224.0.0.1/hook',
      'https://255.255.255.255/hook',
      'https://[::1]/hook',
      'https://[::]/hook',
      'https://[fe80::1]/hook',
      'https://[fc00::1]/hook',
      'https://[ff02::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      // IPv4-compatible IPv6 (::/96): the URL parser writes [::127.0.0.1] as [::7f00:1].
      'https://[::127.0.0.1]/hook',
      'https://[::7f00:1]/hook',
      'https://[::a00:1]/hook',
      'https://no-such-host.invalid/hook',
    ];
    for (const url of refused) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/tenants/${tenant.id}/webhooks`,
        headers: { 'x-api-key': owner.apiKey },
        payload: { url },
      });
      expect(res.statusCode, url).toBe(422);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'body.url' }],
      });
    }
    const localhost = await ctx.app.inject({
      method: 'POST',
      url: `/api/tenants/${tenant.id}/webhooks`,
      headers: { 'x-api-key': owner.apiKey },
      payload: { url: 'https://localhost/hook' },
    });
    expect(localhost.json().errors[0].message).toMatch(/resolves to .*non-public address/);

    // A public address literal needs no DNS and is accepted; so is a PATCH to another one.
    const ok = await ctx.app.inject({
      method: 'POST',
      url: `/api/tenants/${tenant.id}/webhooks`,
      headers: { 'x-api-key': owner.apiKey },
      payload: { url: 'https://93.184.216.34/hook' },
    });
    expect(ok.statusCode).toBe(201);
    const patch = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/tenants/${tenant.id}/webhooks/${ok.json().webhook.id}`,
      headers: { 'x-api-key': owner.apiKey },
      payload: { url: 'https://127.0.0.1/hook' },
    });
    expect(patch.statusCode).toBe(422);
  });
});

// Issue 52: a sandbox on a developer's machine (loopback PUBLIC_URL, the default) takes a
// receiver on that machine with no setting, http included, and delivers to it; anything else
// private stays refused, and the refusal names the setting that would allow it.
describe.each(ENGINES)('webhooks to this machine from a local sandbox on %s', (engine) => {
  let ctx: TestContext;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    ctx = await createTestContext(engine, { env: { PUBLIC_URL: 'http://127.0.0.1:3000' } });
  });
  afterAll(async () => {
    await ctx?.close();
    await receiver?.close();
  });

  it('saves and delivers to a loopback http receiver without WEBHOOK_ALLOW_PRIVATE_URLS', async () => {
    const { owner, tenant } = await setupTenant(ctx);
    const save = (url: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/tenants/${tenant.id}/webhooks`,
        headers: { 'x-api-key': owner.apiKey },
        payload: { url },
      });
    const saved = await save(receiver.url(`/local/${engine}`));
    expect(saved.statusCode, saved.body).toBe(201);
    expect((await save(`http://localhost:${receiver.port}/local`)).statusCode).toBe(201);
    await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    await receiver.waitFor(`/local/${engine}`, 1);

    for (const url of [
      'http://10.1.2.3/hook',
      'https://192.168.1.1/hook',
      'http://93.184.216.34/hook',
    ]) {
      const refused = await save(url);
      expect(refused.statusCode, url).toBe(422);
      expect(refused.json().errors[0].message, url).toMatch(/WEBHOOK_ALLOW_PRIVATE_URLS=true/);
    }
  });
});
