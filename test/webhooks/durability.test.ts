import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import {
  addWebhook,
  setupTenant,
  triggerDocumentEvent,
  waitForDelivery,
  WEBHOOK_TEST_ENV,
} from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';
import {
  spawnService,
  triggerDocumentEventOn,
  waitForRecordedAttempt,
  type ServiceProcess,
} from './service-process.js';

const SECRET_KEY = 's'.repeat(48);
const LATE_MS = 250;

// Real `signet serve` processes on the engine's database; the in-test context (no workers)
// creates users and webhooks and reads the tables.
function serviceEnv(ctx: TestContext, schedule: string): Record<string, string> {
  return {
    DATA_DIR: ctx.config.dataDir,
    ...(ctx.config.databaseUrl ? { DATABASE_URL: ctx.config.databaseUrl } : {}),
    SECRET_KEY,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: schedule,
    WEBHOOK_TIMEOUT_MS: '400',
  };
}

describe.each(ENGINES)('durable delivery across SIGKILL on %s', (engine) => {
  let ctx: TestContext;
  let receiver: Receiver;
  const services: ServiceProcess[] = [];
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      env: { SECRET_KEY, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      workers: false,
    });
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.kill9()));
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  it('resumes the schedule after kill -9: on time when not yet due, at once when overdue', async () => {
    // Attempt 2 at 12 s leaves room for a restart (~4 s, more on a loaded machine); attempt 3
    // at 13 s is overdue by the time the third process comes up.
    const env = serviceEnv(ctx, '0,12000,13000');
    receiver.on('/durable', () => ({ status: 500 }));
    const { owner, tenant } = await setupTenant(ctx);
    await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/durable'));

    const first = await spawnService(env);
    services.push(first);
    const event = await triggerDocumentEventOn(first, ctx, owner.apiKey, tenant.id);
    await receiver.waitFor('/durable', 1);
    await waitForRecordedAttempt(ctx, event.eventId, 1);
    await first.kill9();

    const second = await spawnService(env);
    services.push(second);
    const delivery = await ctx.db.kysely
      .selectFrom('webhook_deliveries')
      .select(['dispatched_at'])
      .where('event_id', '=', event.eventId)
      .executeTakeFirstOrThrow();
    const dispatch = Date.parse(delivery.dispatched_at!);
    const [, attempt2] = await receiver.waitFor('/durable', 2, 20_000);
    expect(attempt2.headers['x-service-webhook-attempt']).toBe('2');
    if (second.readyAt < dispatch + 12_000) {
      // Back before attempt 2 was due: it is made on schedule, relative to dispatch start.
      expect(attempt2.at - (dispatch + 12_000)).toBeGreaterThanOrEqual(-5);
      expect(attempt2.at - (dispatch + 12_000)).toBeLessThanOrEqual(LATE_MS);
    } else {
      // A very slow restart (overloaded machine): then it is overdue and made at once.
      expect(attempt2.at - second.readyAt).toBeLessThan(1000);
    }
    await waitForRecordedAttempt(ctx, event.eventId, 2);
    await second.kill9();

    // Stay down past attempt 3's due time: the restarted process must make it at once.
    await new Promise((r) => setTimeout(r, Math.max(0, dispatch + 13_300 - Date.now())));
    const third = await spawnService(env);
    services.push(third);
    const [, , attempt3] = await receiver.waitFor('/durable', 3, 15_000);
    expect(attempt3.headers['x-service-webhook-attempt']).toBe('3');
    expect(attempt3.at).toBeGreaterThan(third.spawnedAt);
    expect(attempt3.at - third.readyAt).toBeLessThan(1000);
    await waitForRecordedAttempt(ctx, event.eventId, 3);
    await new Promise((r) => setTimeout(r, 500));
    const requests = receiver.received('/durable');
    expect(requests.map((r) => r.headers['x-service-webhook-attempt'])).toEqual(['1', '2', '3']);
    for (const r of requests) expect(r.body.equals(requests[0].body)).toBe(true);
    const attempts = await ctx.db.kysely
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
      .select(['attempt', 'status_code', 'error', 'webhook_deliveries.status'])
      .where('event_id', '=', event.eventId)
      .orderBy('attempt')
      .execute();
    expect(attempts).toEqual([
      { attempt: 1, status_code: 500, error: null, status: 'failed' },
      { attempt: 2, status_code: 500, error: null, status: 'failed' },
      { attempt: 3, status_code: 500, error: null, status: 'failed' },
    ]);
  }, 120_000);
});

describe.each(ENGINES)('an attempt interrupted mid-flight on %s', (engine) => {
  let ctx: TestContext;
  let receiver: Receiver;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { env: WEBHOOK_TEST_ENV, workers: false });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  it('counts it as made: a lease takeover never sends attempt 1 twice nor a 4th attempt', async () => {
    receiver.on('/crashed', () => ({ status: 500 }));
    const { owner, tenant } = await setupTenant(ctx);
    const hook = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/crashed'));
    const event = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    // What a worker leaves behind when it dies during attempt 1: the attempt's job claimed (its
    // claim is the attempt's start) under a lease that has expired, and no outcome. Attempt 1
    // was due 31 s ago.
    const delivery = await ctx.db.kysely
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('event_id', '=', event.eventId)
      .executeTakeFirstOrThrow();
    const dueAt = new Date(Date.now() - 31_000).toISOString();
    await ctx.db.kysely
      .updateTable('jobs')
      .set({
        status: 'running',
        attempts: 1,
        lease_until: new Date(Date.now() - 1000).toISOString(),
        run_at: dueAt,
        payload: JSON.stringify({ deliveryId: delivery.id, attempt: 1, dueAt }),
      })
      .where('kind', '=', 'webhook.attempt')
      .where('payload', 'like', `%${delivery.id}%`)
      .execute();

    ctx.deps.jobs.start();
    const done = await waitForDelivery(ctx, owner.apiKey, tenant.id, hook.id, event.eventId);
    const requests = receiver.received('/crashed');
    expect(requests.map((r) => r.headers['x-service-webhook-attempt'])).toEqual(['2', '3']);
    expect(done.status).toBe('failed');
    expect(done.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, null],
      [2, 500],
      [3, 500],
    ]);
    expect(done.attempts[0].error).toMatch(/^interrupted/);
    // Its real start died with the worker: the time it was due stands in, and dispatch with it.
    expect(done.attempts[0].startedAt).toBe(dueAt);
    expect(done.dispatchedAt).toBe(dueAt);
    // Attempts 2 and 3 were long overdue (dispatch was 31 s ago): made at once, in sequence.
    expect(requests[1].at - requests[0].at).toBeLessThan(200);
  });
});

describe('two service processes on one PostgreSQL', () => {
  let ctx: TestContext;
  let receiver: Receiver;
  const services: ServiceProcess[] = [];
  beforeAll(async () => {
    ctx = await createTestContext('postgres', {
      env: { SECRET_KEY, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      workers: false,
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.kill9()));
    await receiver.close();
    await ctx.close();
  });

  it('makes each attempt exactly once', async () => {
    const env = serviceEnv(ctx, '0,300,1200');
    const seen = new Map<string, number>();
    // Fail attempts 1 and 2 of every event, accept attempt 3: every attempt is exercised.
    const behaviour = (path: string) => (request: { headers: Record<string, unknown> }) => {
      const key = `${path} ${String(request.headers['x-service-webhook-id'])}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      return { status: seen.get(key)! < 3 ? 500 : 200 };
    };
    receiver.on('/two/a', behaviour('/two/a'));
    receiver.on('/two/b', behaviour('/two/b'));
    const { owner, tenant } = await setupTenant(ctx);
    await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/two/a'));
    await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/two/b'));
    const [p1, p2] = await Promise.all([spawnService(env), spawnService(env)]);
    services.push(p1, p2);

    const events = 20;
    const ids: string[] = [];
    await Promise.all(
      [p1, p2].map(async (service, i) => {
        for (let n = i; n < events; n += 2) {
          ids.push((await triggerDocumentEventOn(service, ctx, owner.apiKey, tenant.id)).eventId);
        }
      }),
    );
    await receiver.waitFor('/two/a', events * 3, 30_000);
    await receiver.waitFor('/two/b', events * 3, 30_000);
    await new Promise((r) => setTimeout(r, 1500));

    for (const path of ['/two/a', '/two/b']) {
      const requests = receiver.received(path);
      expect(requests).toHaveLength(events * 3);
      const keys = requests.map(
        (r) =>
          `${String(r.headers['x-service-webhook-id'])}#${String(r.headers['x-service-webhook-attempt'])}`,
      );
      expect(new Set(keys).size).toBe(events * 3);
      for (const id of ids) {
        for (const n of [1, 2, 3]) expect(keys).toContain(`${id}#${n}`);
      }
    }
    const deliveries = await ctx.db.kysely
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempt_count'])
      .where('tenant_id', '=', tenant.id)
      .execute();
    expect(deliveries).toHaveLength(events * 2);
    expect(deliveries.every((d) => d.status === 'succeeded' && d.attempt_count === 3)).toBe(true);
    // Both processes took part (each logs the attempts it made).
    const made = [p1, p2].map((p) => p.logs.filter((l) => l.msg === 'webhook attempt').length);
    expect(made[0] + made[1]).toBe(events * 2 * 3);
    expect(made[0]).toBeGreaterThan(0);
    expect(made[1]).toBeGreaterThan(0);
  }, 120_000);
});
