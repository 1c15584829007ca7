import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';

describe.each(ENGINES)('not found, in one wording, on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
  });
  afterAll(() => ctx.close());

  it("answers another tenant's document exactly as a document that does not exist", async () => {
    const owner = await createUser(ctx);
    const stranger = await createUser(ctx);
    const tenant = await createTenant(ctx, owner.apiKey);
    const created = await quickCreate(ctx, owner.apiKey, { tenantId: tenant.id });
    expect(created.status).toBe(201);
    const id = created.body.document.id as string;
    for (const suffix of ['', '/audit-trail']) {
      const theirs = await api(ctx, stranger.apiKey, 'GET', `/api/documents/${id}${suffix}`);
      const none = await api(
        ctx,
        stranger.apiKey,
        'GET',
        `/api/documents/${randomUUID()}${suffix}`,
      );
      expect(theirs.status).toBe(404);
      const { requestId: _a, ...a } = theirs.body as Record<string, unknown>;
      const { requestId: _b, ...b } = none.body as Record<string, unknown>;
      expect(a).toEqual(b);
      expect(a.detail).toBe('No such document.');
    }
    for (const action of ['send-for-signing', 'cancel', 'remind']) {
      const theirs = await api(ctx, stranger.apiKey, 'POST', `/api/documents/${id}/${action}`);
      expect(theirs.status).toBe(404);
      expect((theirs.body as { detail: string }).detail).toBe('No such document.');
    }
  });
});
