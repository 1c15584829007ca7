import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/src/verify-webhook.js';
import { newId } from '../../server/src/lib/ids.js';
import { recordStatusChange } from '../../server/src/modules/events/events.service.js';
import { WEBHOOK_CONCURRENCY } from '../../server/src/modules/webhooks/webhook-attempt-job.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import {
  addWebhook,
  setupTenant,
  triggerDocumentEvent,
  waitForDelivery,
  WEBHOOK_TEST_ENV,
} from './fixtures.js';
import { startReceiver, type Received, type Receiver } from './receiver.js';

// Schedule 0 / 300 / 1200 ms, timeout 400 ms (WEBHOOK_TEST_ENV). A start may not be early
// (beyond clock rounding) and may be late by at most LATE_MS: generous, because the whole suite
// shares two cores; bench/webhooks.bench.ts measures punctuality on an unloaded process.
const EARLY_MS = 5;
const LATE_MS = 250;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function expectStartNear(actual: number, expected: number, label: string) {
  expect(actual, `${label} started ${actual - expected} ms off`).toBeGreaterThanOrEqual(
    expected - EARLY_MS,
  );
  expect(actual, `${label} started ${actual - expected} ms off`).toBeLessThanOrEqual(
    expected + LATE_MS,
  );
}

describe.each(ENGINES)('webhook delivery on %s', (engine) => {
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

  async function tenantWithWebhook(path: string) {
    const { owner, tenant } = await setupTenant(ctx);
    const webhook = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url(path));
    return { owner, tenant, webhook };
  }

  function verify(request: Received, secret: string) {
    return verifyWebhook({
      rawBody: request.body,
      signatureHeader: request.headers['x-service-signature'] as string,
      secret,
    });
  }

  it('delivers a document event once, signed, with exactly the specified headers', async () => {
    const { owner, tenant, webhook } = await tenantWithWebhook('/ok');
    const event = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    const [request] = await receiver.waitFor('/ok', 1);

    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-service-webhook-attempt']).toBe('1');
    expect(request.headers['x-service-webhook-event']).toBe('document.status_changed');
    expect(request.headers['x-service-webhook-id']).toBe(event.eventId);
    expect(request.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(new Set(request.headerNames)).toEqual(
      new Set([
        'host',
        'connection',
        'content-length',
        'content-type',
        'x-service-signature',
        'x-service-webhook-attempt',
        'x-service-webhook-event',
        'x-service-webhook-id',
      ]),
    );
    const t = Number(/^t=(\d+)/.exec(request.headers['x-service-signature'] as string)![1]);
    expect(Math.abs(t - request.at / 1000)).toBeLessThan(2);

    const verified = verify(request, webhook.secret);
    expect(verified).toEqual({
      ok: true,
      event: {
        id: event.eventId,
        type: 'document.status_changed',
        occurredAt: expect.any(String),
        tenantId: tenant.id,
        data: {
          documentId: event.documentId,
          oldStatus: 'draft',
          newStatus: 'in_process',
          changedAt: expect.any(String),
          externalId: null,
          metadata: null,
        },
      },
    });
    const stored = await ctx.db.kysely
      .selectFrom('events')
      .select('payload')
      .where('id', '=', event.eventId)
      .executeTakeFirstOrThrow();
    expect(request.body.equals(Buffer.from(stored.payload, 'utf8'))).toBe(true);
    // The first attempt starts right after the status change's commit (the runner is woken).
    expect(request.at - event.committedAt).toBeLessThan(250);

    const delivery = await waitForDelivery(ctx, owner.apiKey, tenant.id, webhook.id, event.eventId);
    expect(delivery).toMatchObject({ status: 'succeeded', eventType: 'document.status_changed' });
    expect(delivery.attempts).toEqual([
      {
        attempt: 1,
        scheduledAt: expect.any(String),
        startedAt: delivery.dispatchedAt,
        finishedAt: expect.any(String),
        statusCode: 200,
        durationMs: expect.any(Number),
        error: null,
      },
    ]);
    await sleep(1400);
    expect(receiver.received('/ok')).toHaveLength(1);
  });

  it('retries a failing receiver at 0, 300 and 1200 ms: same body, fresh signatures, no 4th', async () => {
    receiver.on('/fail', () => ({ status: 500 }));
    const { owner, tenant, webhook } = await tenantWithWebhook('/fail');
    const event = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    const requests = await receiver.waitFor('/fail', 3, 5000);
    const delivery = await waitForDelivery(ctx, owner.apiKey, tenant.id, webhook.id, event.eventId);

    expect(requests.map((r) => r.headers['x-service-webhook-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(requests.map((r) => r.headers['x-service-webhook-id']))).toEqual(
      new Set([event.eventId]),
    );
    for (const r of requests) {
      expect(r.body.equals(requests[0].body)).toBe(true);
      expect(verify(r, webhook.secret).ok).toBe(true);
    }
    const dispatch = Date.parse(delivery.dispatchedAt!);
    expectStartNear(requests[0].at, dispatch, 'attempt 1');
    expectStartNear(requests[1].at, dispatch + 300, 'attempt 2');
    expectStartNear(requests[2].at, dispatch + 1200, 'attempt 3');

    expect(delivery.status).toBe('failed');
    expect(delivery.attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, null],
      [2, 500, null],
      [3, 500, null],
    ]);
    await sleep(500);
    expect(receiver.received('/fail')).toHaveLength(3);
  });

  it('times out a silent receiver and starts an overrun attempt when the previous one ends', async () => {
    receiver.on('/silent', () => ({ delayMs: 1000 }));
    const { owner, tenant, webhook } = await tenantWithWebhook('/silent');
    const event = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    const requests = await receiver.waitFor('/silent', 3, 5000);
    const delivery = await waitForDelivery(ctx, owner.apiKey, tenant.id, webhook.id, event.eventId);
    const dispatch = Date.parse(delivery.dispatchedAt!);
    const [first, second, third] = delivery.attempts;

    expect(delivery.status).toBe('failed');
    for (const a of delivery.attempts) {
      expect(a.statusCode).toBeNull();
      expect(a.error).toBe('timed out after 400 ms');
      expect(a.durationMs).toBeGreaterThanOrEqual(395);
      expect(a.durationMs).toBeLessThan(400 + LATE_MS);
    }
    // Attempt 2 was due at 300 ms but attempt 1 ran until ~400 ms: it starts when 1 ends.
    const firstEnd = Date.parse(first.finishedAt!);
    expect(firstEnd - dispatch).toBeGreaterThan(300);
    expectStartNear(Date.parse(second.startedAt), firstEnd, 'attempt 2 (overrun)');
    expect(second.scheduledAt).toBe(first.finishedAt);
    expectStartNear(requests[1].at, firstEnd, 'attempt 2 arrival');
    // Attempt 3 keeps its own slot at 1200 ms: attempt 2 ended well before it.
    expectStartNear(Date.parse(third.startedAt), dispatch + 1200, 'attempt 3');
    expectStartNear(requests[2].at, dispatch + 1200, 'attempt 3 arrival');
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    receiver.on('/moved', () => ({ status: 302, headers: { location: receiver.url('/target') } }));
    const { owner, tenant, webhook } = await tenantWithWebhook('/moved');
    const event = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    await receiver.waitFor('/moved', 3, 5000);
    const delivery = await waitForDelivery(ctx, owner.apiKey, tenant.id, webhook.id, event.eventId);
    expect(receiver.received('/target')).toHaveLength(0);
    expect(delivery.status).toBe('failed');
    for (const a of delivery.attempts) {
      expect(a.statusCode).toBe(302);
      expect(a.error).toContain('redirect not followed');
    }
  });

  it('stops at the first 2xx: a receiver that recovers on attempt 2 gets no attempt 3', async () => {
    receiver.on('/second', (_r, nth) => ({ status: nth < 2 ? 503 : 204 }));
    const { owner, tenant, webhook } = await tenantWithWebhook('/second');
    const event = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    await receiver.waitFor('/second', 2, 5000);
    const delivery = await waitForDelivery(ctx, owner.apiKey, tenant.id, webhook.id, event.eventId);
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([503, 204]);
    await sleep(1300);
    expect(receiver.received('/second')).toHaveLength(2);
  });

  it('succeeds on the third attempt', async () => {
    receiver.on('/third', (_r, nth) => ({ status: nth < 3 ? 500 : 200 }));
    const { owner, tenant, webhook } = await tenantWithWebhook('/third');
    const event = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    await receiver.waitFor('/third', 3, 5000);
    const delivery = await waitForDelivery(ctx, owner.apiKey, tenant.id, webhook.id, event.eventId);
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
  });

  it('keeps at most 64 requests in flight, however many attempts the pool has claimed', async () => {
    // A slow receiver and a backlog of 150 events: on PostgreSQL the pool claims 128 attempts so
    // that their database work overlaps the requests, but only 64 requests are ever out at once.
    let open = 0;
    let most = 0;
    const delayMs = 250;
    receiver.on('/slow', () => {
      open++;
      most = Math.max(most, open);
      setTimeout(() => open--, delayMs);
      return { status: 200, delayMs };
    });
    const { tenant, webhook } = await tenantWithWebhook('/slow');
    for (let i = 0; i < 150; i++) {
      await ctx.db.kysely.transaction().execute((trx) =>
        recordStatusChange(trx, {
          tenantId: tenant.id,
          documentId: newId(),
          oldStatus: 'draft',
          newStatus: 'in_process',
        }),
      );
    }
    ctx.deps.jobs.wake();
    await receiver.waitFor('/slow', 150, 20_000);
    expect(most).toBe(WEBHOOK_CONCURRENCY);
    await ctx.deps.jobs.idle();
    const done = await ctx.db.kysely
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('webhook_id', '=', webhook.id)
      .where('status', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    expect(Number(done.n)).toBe(150);
    expect(receiver.received('/slow')).toHaveLength(150);
  });
});
