import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/src/verify-webhook.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { addMemberByInvitation, createUser } from '../helpers/factories.js';
import {
  addWebhook,
  listDeliveries,
  setupTenant,
  triggerDocumentEvent,
  triggerSigneeEvent,
  waitForDelivery,
  WEBHOOK_TEST_ENV,
} from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(ENGINES)('which webhooks get which events, redelivery, on %s', (engine) => {
  let ctx: TestContext;
  let receiver: Receiver;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { env: WEBHOOK_TEST_ENV });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  const as = (apiKey: string) => ({ 'x-api-key': apiKey });

  it('sends document events to every active webhook and nothing to inactive ones', async () => {
    const { owner, tenant } = await setupTenant(ctx);
    const a = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/fan/a'));
    const b = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/fan/b'));
    const off = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/fan/off'));
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/tenants/${tenant.id}/webhooks/${off.id}`,
      headers: as(owner.apiKey),
      payload: { active: false },
    });
    expect(patched.statusCode).toBe(200);
    // Another tenant's webhook must not hear this tenant's events.
    const other = await setupTenant(ctx);
    await addWebhook(ctx, other.owner.apiKey, other.tenant.id, receiver.url('/fan/other'));

    const event = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    const [ra] = await receiver.waitFor('/fan/a', 1);
    const [rb] = await receiver.waitFor('/fan/b', 1);
    expect(ra.headers['x-service-webhook-id']).toBe(event.eventId);
    expect(ra.body.equals(rb.body)).toBe(true);
    // Each webhook signs with its own secret.
    const header = (r: typeof ra) => r.headers['x-service-signature'] as string;
    expect(
      verifyWebhook({ rawBody: ra.body, signatureHeader: header(ra), secret: a.secret }).ok,
    ).toBe(true);
    expect(
      verifyWebhook({ rawBody: rb.body, signatureHeader: header(rb), secret: b.secret }).ok,
    ).toBe(true);
    expect(
      verifyWebhook({ rawBody: rb.body, signatureHeader: header(rb), secret: a.secret }),
    ).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    await waitForDelivery(ctx, owner.apiKey, tenant.id, b.id, event.eventId);
    await sleep(200);
    expect(receiver.received('/fan/off')).toHaveLength(0);
    expect(receiver.received('/fan/other')).toHaveLength(0);
    expect(await listDeliveries(ctx, owner.apiKey, tenant.id, off.id)).toEqual([]);
  });

  it('sends signee events only to tenants that opted in', async () => {
    const { owner, tenant } = await setupTenant(ctx);
    const hook = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/signee'));
    const documentId = randomUUID();
    const ignored = await triggerSigneeEvent(ctx, { tenantId: tenant.id, documentId });
    await sleep(300);
    expect(receiver.received('/signee')).toHaveLength(0);
    const rows = await ctx.db.kysely
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('event_id', '=', ignored)
      .execute();
    expect(rows).toEqual([]);

    const opt = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/tenants/${tenant.id}/settings`,
      headers: as(owner.apiKey),
      payload: { signeeEvents: true },
    });
    expect(opt.statusCode).toBe(200);
    const signeeId = randomUUID();
    const eventId = await triggerSigneeEvent(ctx, { tenantId: tenant.id, documentId, signeeId });
    const [request] = await receiver.waitFor('/signee', 1);
    expect(request.headers['x-service-webhook-event']).toBe('signee.status_changed');
    expect(request.headers['x-service-webhook-id']).toBe(eventId);
    const verified = verifyWebhook({
      rawBody: request.body,
      signatureHeader: request.headers['x-service-signature'] as string,
      secret: hook.secret,
    });
    expect(verified.ok && verified.event.data).toEqual({
      documentId,
      signeeId,
      oldStatus: 'pending',
      newStatus: 'signed',
      changedAt: expect.any(String),
      externalId: null,
      metadata: null,
    });
  });

  it('redelivers an event as a fresh series with the same id and body', async () => {
    const { owner, tenant } = await setupTenant(ctx);
    const hook = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/again'));
    const event = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    const [first] = await receiver.waitFor('/again', 1);
    await waitForDelivery(ctx, owner.apiKey, tenant.id, hook.id, event.eventId);

    const url = `/api/tenants/${tenant.id}/webhooks/${hook.id}/deliveries/${event.eventId}/redeliver`;
    const res = await ctx.app.inject({ method: 'POST', url, headers: as(owner.apiKey) });
    expect(res.statusCode).toBe(202);
    expect(res.json().delivery).toMatchObject({
      eventId: event.eventId,
      status: 'pending',
      attempts: [],
    });
    const [, again] = await receiver.waitFor('/again', 2);
    expect(again.headers['x-service-webhook-id']).toBe(event.eventId);
    expect(again.headers['x-service-webhook-attempt']).toBe('1');
    expect(again.body.equals(first.body)).toBe(true);
    expect(
      verifyWebhook({
        rawBody: again.body,
        signatureHeader: again.headers['x-service-signature'] as string,
        secret: hook.secret,
      }).ok,
    ).toBe(true);
    // Both series settled (waitForDelivery would return the first one, already done).
    let log = await listDeliveries(ctx, owner.apiKey, tenant.id, hook.id);
    for (let i = 0; i < 200 && log.some((d) => d.status === 'pending'); i++) {
      await sleep(25);
      log = await listDeliveries(ctx, owner.apiKey, tenant.id, hook.id);
    }
    expect(log.map((d) => [d.eventId, d.status, d.attempts.length])).toEqual([
      [event.eventId, 'succeeded', 1],
      [event.eventId, 'succeeded', 1],
    ]);
    expect(log[0].id).toBe(res.json().delivery.id);

    const unknown = await ctx.app.inject({
      method: 'POST',
      url: url.replace(event.eventId, randomUUID()),
      headers: as(owner.apiKey),
    });
    expect(unknown.statusCode).toBe(404);
    const other = await setupTenant(ctx);
    const foreign = await triggerDocumentEvent(ctx, other.owner.apiKey, other.tenant.id);
    const crossTenant = await ctx.app.inject({
      method: 'POST',
      url: url.replace(event.eventId, foreign.eventId),
      headers: as(owner.apiKey),
    });
    expect(crossTenant.statusCode).toBe(404);
  });

  it('pages the delivery log newest first', async () => {
    const { owner, tenant } = await setupTenant(ctx);
    const hook = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/pages'));
    const events = [];
    for (let i = 0; i < 3; i++)
      events.push(await triggerDocumentEvent(ctx, owner.apiKey, tenant.id));
    await receiver.waitFor('/pages', 3);
    const base = `/api/tenants/${tenant.id}/webhooks/${hook.id}/deliveries`;
    const page1 = await ctx.app.inject({
      method: 'GET',
      url: `${base}?limit=2`,
      headers: as(owner.apiKey),
    });
    expect(page1.statusCode).toBe(200);
    expect(page1.json().deliveries.map((d: { eventId: string }) => d.eventId)).toEqual([
      events[2].eventId,
      events[1].eventId,
    ]);
    const cursor = page1.json().nextCursor as string;
    const page2 = await ctx.app.inject({
      method: 'GET',
      url: `${base}?limit=2&cursor=${cursor}`,
      headers: as(owner.apiKey),
    });
    expect(page2.json().deliveries.map((d: { eventId: string }) => d.eventId)).toEqual([
      events[0].eventId,
    ]);
    expect(page2.json().nextCursor).toBeNull();
    const bad = await ctx.app.inject({
      method: 'GET',
      url: `${base}?cursor=nonsense`,
      headers: as(owner.apiKey),
    });
    expect(bad.statusCode).toBe(422);
  });

  it('deactivating a webhook cancels its remaining attempts; redelivery needs it active', async () => {
    receiver.on('/stop', () => ({ status: 500 }));
    const { owner, tenant } = await setupTenant(ctx);
    const hook = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/stop'));
    const event = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    await receiver.waitFor('/stop', 1);
    const off = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/tenants/${tenant.id}/webhooks/${hook.id}`,
      headers: as(owner.apiKey),
      payload: { active: false },
    });
    expect(off.statusCode).toBe(200);
    const delivery = await waitForDelivery(ctx, owner.apiKey, tenant.id, hook.id, event.eventId);
    expect(delivery.status).toBe('cancelled');
    expect(delivery.attempts).toHaveLength(1);
    await sleep(1300);
    expect(receiver.received('/stop')).toHaveLength(1);
    const redeliver = await ctx.app.inject({
      method: 'POST',
      url: `/api/tenants/${tenant.id}/webhooks/${hook.id}/deliveries/${event.eventId}/redeliver`,
      headers: as(owner.apiKey),
    });
    expect(redeliver.statusCode).toBe(409);
  });

  it('signs the attempts after a rotation with the new secret', async () => {
    receiver.on('/rotate', (_r, nth) => ({ status: nth === 1 ? 500 : 200 }));
    const { owner, tenant } = await setupTenant(ctx);
    const hook = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/rotate'));
    await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    const [first] = await receiver.waitFor('/rotate', 1);
    const rotated = await ctx.app.inject({
      method: 'POST',
      url: `/api/tenants/${tenant.id}/webhooks/${hook.id}/rotate-secret`,
      headers: as(owner.apiKey),
    });
    const secret = rotated.json().secret as string;
    const [, second] = await receiver.waitFor('/rotate', 2);
    const check = (r: typeof first, s: string) =>
      verifyWebhook({
        rawBody: r.body,
        signatureHeader: r.headers['x-service-signature'] as string,
        secret: s,
      }).ok;
    expect(check(first, hook.secret)).toBe(true);
    expect(check(second, secret)).toBe(true);
    expect(check(second, hook.secret)).toBe(false);
  });

  it('lets admins read the log; deleting a webhook removes it and stops its attempts', async () => {
    receiver.on('/gone', () => ({ status: 500 }));
    const { owner, tenant } = await setupTenant(ctx);
    const admin = await createUser(ctx);
    await addMemberByInvitation(ctx, owner.apiKey, tenant.id, admin, 'admin');
    const hook = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/gone'));
    await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    await receiver.waitFor('/gone', 1);
    expect(await listDeliveries(ctx, admin.apiKey, tenant.id, hook.id)).toHaveLength(1);
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/tenants/${tenant.id}/webhooks/${hook.id}`,
      headers: as(admin.apiKey),
    });
    expect(del.statusCode).toBe(204);
    await sleep(1400);
    expect(receiver.received('/gone')).toHaveLength(1);
  });
});
