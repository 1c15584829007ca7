import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';

describe.each(ENGINES)('stored idempotent answers on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
  });
  afterAll(() => ctx.close());

  it('keeps no signing link in clear, and replays the identical answer', async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const settings = await api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
      invitationEmails: false,
    });
    expect(settings.status).toBe(200);
    const made = await quickCreate(ctx, owner.apiKey, { tenantId });
    expect(made.status).toBe(201);
    const path = `/api/documents/${made.body.document.id}/send-for-signing`;
    const headers = { 'idempotency-key': 'send-once-please' };

    const first = await api(ctx, owner.apiKey, 'POST', path, undefined, headers);
    expect(first.status).toBe(200);
    const links = first.body.deliveries.map((d: { signingUrl: string }) => d.signingUrl);
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toMatch(/\/sign\/sg_/);

    const rows = await ctx.db.kysely
      .selectFrom('idempotency_keys')
      .select(['key', 'response_body'])
      .execute();
    const stored = rows.find((r) => r.key === 'send-once-please');
    expect(stored?.response_body).toBeTruthy();
    for (const row of rows) {
      expect(row.response_body ?? '').not.toContain('sg_');
      expect(row.response_body ?? '').not.toContain('/sign/');
      for (const link of links) {
        const token = link.split('/sign/')[1] as string;
        expect(row.response_body ?? '').not.toContain(token);
      }
    }

    const replay = await api(ctx, owner.apiKey, 'POST', path, undefined, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    // The replayed link is the live one.
    const token = (replay.body.deliveries[0].signingUrl as string).split('/sign/')[1];
    const page = await ctx.app.inject({ method: 'GET', url: `/api/signing/${token}` });
    expect(page.statusCode).toBe(200);
  });

  it('stores a copied answer so that it cannot be replayed under another key', async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const headers = (key: string) => ({ 'idempotency-key': key });
    const a = await api(ctx, owner.apiKey, 'POST', '/api/tenants', { name: 'A' }, headers('k-a'));
    const b = await api(ctx, owner.apiKey, 'POST', '/api/tenants', { name: 'B' }, headers('k-b'));
    expect([a.status, b.status]).toEqual([201, 201]);
    const rowA = await ctx.db.kysely
      .selectFrom('idempotency_keys')
      .select('response_body')
      .where('key', '=', 'k-a')
      .executeTakeFirstOrThrow();
    // B's row given A's ciphertext: its replay refuses rather than answering A's tenant.
    await ctx.db.kysely
      .updateTable('idempotency_keys')
      .set({ response_body: rowA.response_body })
      .where('key', '=', 'k-b')
      .execute();
    const replay = await api(
      ctx,
      owner.apiKey,
      'POST',
      '/api/tenants',
      { name: 'B' },
      headers('k-b'),
    );
    expect(replay.status).toBe(409);
    expect(tenantId).toBeTruthy();
  });
});
