import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';
import { expectProblem, rowCounts } from './support.js';

describe.each(ENGINES)('oversized and deeply nested JSON on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  let routes: Array<{ url: string; headers: Record<string, string>; limit?: number }>;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { workers: false, listen: true });
    owner = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const key = { 'x-api-key': owner.apiKey };
    routes = [
      { url: '/api/auth/signup', headers: {} },
      { url: '/api/auth/login', headers: {} },
      { url: '/api/tenants', headers: key },
      { url: `/api/tenants/${tenantId}/members`, headers: key },
      { url: `/api/tenants/${tenantId}/webhooks`, headers: key },
      {
        url: '/api/account/api-keys',
        headers: { cookie: owner.cookie, origin: 'http://localhost:3000' },
      },
      // Signing takes 4 MiB: an uploaded signature image of 1 MiB, as base64 (decisions §15).
      { url: '/api/signing/sg_abcdefghijklmnopqrstuvwxyz/sign', headers: {}, limit: 4 },
    ];
  });
  afterAll(() => ctx.close());

  const post = (url: string, headers: Record<string, string>, payload: string) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload,
    });

  it('refuses a body over its limit (1 MiB; signing 4) with 413 on every JSON route, and changes nothing', async () => {
    const before = await rowCounts(ctx);
    for (const { url, headers, limit = 1 } of routes) {
      const big = JSON.stringify({ name: 'x'.repeat(limit * 1024 * 1024), email: 'a@example.com' });
      const res = await post(url, headers, big);
      expect(res.statusCode, url).toBe(413);
      expectProblem(res, url);
      expect(res.json().code).toBe('payload_too_large');
    }
    // Just under the limit is read (and then refused by validation, not by size).
    const fits = JSON.stringify({ name: 'x'.repeat(1024 * 1024 - 100) });
    const res = await post('/api/tenants', { 'x-api-key': owner.apiKey }, fits);
    expect(res.statusCode).toBe(422);
    expect(await rowCounts(ctx)).toEqual(before);
  });

  it('answers 10 000 levels of nesting with a 4xx and keeps serving', async () => {
    const before = await rowCounts(ctx);
    const depth = 10_000;
    const bodies = [
      '['.repeat(depth) + ']'.repeat(depth),
      '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
      `{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      `{"consent":true,"signature":${'{"type":'.repeat(depth)}"typed"${'}'.repeat(depth)}}`,
      // Unbalanced: a parser that recurses must still fail cleanly.
      '['.repeat(100_000),
    ];
    for (const { url, headers } of routes) {
      for (const payload of bodies) {
        const res = await post(url, headers, payload);
        expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
        expectProblem(res, url);
      }
    }
    expect(await rowCounts(ctx)).toEqual(before);
    expect((await ctx.app.inject('/healthz')).statusCode).toBe(200);
    const tenant = await post('/api/tenants', { 'x-api-key': owner.apiKey }, '{"name":"Still up"}');
    expect(tenant.statusCode).toBe(201);
  });

  it('lists at most 100 problems in a 422, saying how many there were', async () => {
    const template = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template: { name: 'Wide', roles: [{ name: 'Client' }] },
      fields: signatureFields(1),
    });
    expect(template.status).toBe(201);
    const before = await rowCounts(ctx);
    const prefill = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 'v']));
    const signees = [{ role: 'Client', email: 'c@example.com', name: 'C' }];
    const res = await post(
      `/api/templates/${template.body.template.id}/documents`,
      { 'x-api-key': owner.apiKey },
      JSON.stringify({ signees, prefill }),
    );
    expect(res.statusCode).toBe(422);
    expectProblem(res, 'from-template');
    expect(res.json().errors).toHaveLength(100);
    expect(res.json().errors[0]).toEqual({ path: 'prefill.k0', message: expect.any(String) });
    expect(res.json().detail).toMatch(/The first 100 of 20,000 problems are listed\.$/);
    expect(res.body.length).toBeLessThan(16 * 1024);
    expect(await rowCounts(ctx)).toEqual(before);
  });
});
