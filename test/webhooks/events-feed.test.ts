import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { addMemberByInvitation, createUser } from '../helpers/factories.js';
import {
  setupTenant,
  triggerDocumentEvent,
  triggerSigneeEvent,
  WEBHOOK_TEST_ENV,
} from './fixtures.js';

describe.each(ENGINES)('GET /api/events on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { env: WEBHOOK_TEST_ENV });
  });
  afterAll(() => ctx.close());

  const get = (apiKey: string, query: string) =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/events?${query}`,
      headers: { 'x-api-key': apiKey },
    });

  it("lists a tenant's events in order, exactly as delivered, paged with after", async () => {
    const { owner, tenant } = await setupTenant(ctx);
    const ids: string[] = [];
    const doc = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    ids.push(doc.eventId);
    for (let i = 0; i < 3; i++) {
      // Events of the same millisecond are ordered by id; space them to know the expected order.
      await new Promise((r) => setTimeout(r, 3));
      ids.push(await triggerSigneeEvent(ctx, { tenantId: tenant.id, documentId: doc.documentId }));
    }
    await new Promise((r) => setTimeout(r, 3));
    ids.push((await triggerDocumentEvent(ctx, owner.apiKey, tenant.id)).eventId);
    // Noise from another tenant never shows up.
    const other = await setupTenant(ctx);
    await triggerDocumentEvent(ctx, other.owner.apiKey, other.tenant.id);

    const all = await get(owner.apiKey, `tenantId=${tenant.id}`);
    expect(all.statusCode).toBe(200);
    expect(all.json().hasMore).toBe(false);
    const events = all.json().events as Array<{ id: string; type: string; tenantId: string }>;
    expect(events.map((e) => e.id)).toEqual(ids);
    expect(events.every((e) => e.tenantId === tenant.id)).toBe(true);
    // Each item is the stored envelope, byte for byte once re-serialised the same way.
    const stored = await ctx.db.kysely
      .selectFrom('events')
      .select(['id', 'payload'])
      .where('id', '=', ids[1])
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(events[1])).toBe(stored.payload);

    const page1 = await get(owner.apiKey, `tenantId=${tenant.id}&limit=2`);
    expect(page1.json().events.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 2));
    expect(page1.json().hasMore).toBe(true);
    const page2 = await get(owner.apiKey, `tenantId=${tenant.id}&limit=2&after=${ids[1]}`);
    expect(page2.json().events.map((e: { id: string }) => e.id)).toEqual(ids.slice(2, 4));
    const page3 = await get(owner.apiKey, `tenantId=${tenant.id}&limit=2&after=${ids[3]}`);
    expect(page3.json()).toMatchObject({ hasMore: false });
    expect(page3.json().events.map((e: { id: string }) => e.id)).toEqual(ids.slice(4));
    const end = await get(owner.apiKey, `tenantId=${tenant.id}&after=${ids[4]}`);
    expect(end.json()).toEqual({ events: [], hasMore: false });
  });

  it('is readable by any member, 404 for strangers, 422 for a foreign cursor', async () => {
    const { owner, tenant } = await setupTenant(ctx);
    const member = await createUser(ctx);
    const stranger = await createUser(ctx);
    await addMemberByInvitation(ctx, owner.apiKey, tenant.id, member, 'member');
    const event = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    const byMember = await get(member.apiKey, `tenantId=${tenant.id}`);
    expect(byMember.statusCode).toBe(200);
    expect(byMember.json().events.map((e: { id: string }) => e.id)).toEqual([event.eventId]);

    const byStranger = await get(stranger.apiKey, `tenantId=${tenant.id}`);
    expect(byStranger.statusCode).toBe(404);
    expect(byStranger.headers['content-type']).toContain('application/problem+json');
    expect((await get(stranger.apiKey, `tenantId=${randomUUID()}`)).statusCode).toBe(404);

    const other = await setupTenant(ctx);
    const foreign = await triggerDocumentEvent(ctx, other.owner.apiKey, other.tenant.id);
    const crossCursor = await get(owner.apiKey, `tenantId=${tenant.id}&after=${foreign.eventId}`);
    expect(crossCursor.statusCode).toBe(422);
    expect(crossCursor.json().errors[0].path).toBe('query.after');
    expect((await get(owner.apiKey, 'limit=5')).statusCode).toBe(422);
    expect((await get(owner.apiKey, `tenantId=${tenant.id}&limit=0`)).statusCode).toBe(422);
    expect((await get(owner.apiKey, `tenantId=${tenant.id}&limit=101`)).statusCode).toBe(422);
    const unauthenticated = await ctx.app.inject({
      method: 'GET',
      url: `/api/events?tenantId=${tenant.id}`,
    });
    expect(unauthenticated.statusCode).toBe(401);
  });
});
