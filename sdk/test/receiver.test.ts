// The receiver table, end to end: real servers on 127.0.0.1, deliveries posted with fetch.
import Fastify from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createExpressWebhookHandler,
  createMemoryEventStore,
  createNodeWebhookHandler,
  fastifyWebhookPlugin,
  type NodeWebhookHandlerOptions,
  type WebhookDeliveryContext,
  type WebhookEvent,
} from '../src/index.js';
import { SECRET, buildDelivery, buildEvent, deferred, listen, post } from './helpers.js';

type Started = { url: string; close: () => Promise<void> };

async function startNode(options: NodeWebhookHandlerOptions): Promise<Started> {
  return listen(createNodeWebhookHandler(options));
}

// Stands in for `app.post(path, express.raw({ type: 'application/json' }), handler)`.
async function startExpressStyle(options: NodeWebhookHandlerOptions): Promise<Started> {
  const handler = createExpressWebhookHandler(options);
  return listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(Object.assign(req, { body: Buffer.concat(chunks) }), res));
  });
}

async function startFastify(options: NodeWebhookHandlerOptions): Promise<Started> {
  const app = Fastify();
  // A sibling route proves the raw parser stays inside the plugin.
  app.post('/echo', async (request) => ({ parsed: request.body }));
  await app.register(fastifyWebhookPlugin, { ...options, prefix: '/webhooks', path: '/signet' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks/signet`, close: () => app.close() };
}

const open: Started[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

type Calls = { event: WebhookEvent; context: WebhookDeliveryContext }[];

describe.each([
  ['node:http', startNode],
  ['express-style', startExpressStyle],
  ['fastify', startFastify],
])('receiver via %s', (_name, start) => {
  async function setup(
    overrides: Partial<NodeWebhookHandlerOptions> & {
      onEvent?: NodeWebhookHandlerOptions['onEvent'];
    } = {},
  ) {
    const calls: Calls = [];
    const store = createMemoryEventStore();
    const server = await start({
      secret: SECRET,
      store,
      onEvent: (event, context) => {
        calls.push({ event, context });
      },
      ...overrides,
    });
    open.push(server);
    return { url: server.url, calls, store };
  }

  it('processes a valid delivery once and passes the attempt number', async () => {
    const { url, calls, store } = await setup();
    const event = buildEvent();
    const response = await post(url, buildDelivery(event, { attempt: 2 }));
    expect(response).toEqual({
      status: 200,
      body: { received: true, status: 'processed', eventId: event.id },
    });
    expect(calls).toEqual([{ event, context: { attempt: 2 } }]);
    expect(await store.has(event.id)).toBe(true);
  });

  it('answers a duplicate delivery 200 without calling onEvent again', async () => {
    const { url, calls } = await setup();
    const event = buildEvent();
    expect((await post(url, buildDelivery(event))).status).toBe(200);
    const second = await post(url, buildDelivery(event, { attempt: 2 }));
    expect(second).toEqual({
      status: 200,
      body: { received: true, status: 'duplicate', eventId: event.id },
    });
    expect(calls).toHaveLength(1);
  });

  it('runs onEvent once for two concurrent deliveries of the same event', async () => {
    const gate = deferred();
    let running = 0;
    let maxRunning = 0;
    const { url, calls } = await setup({
      onEvent: async (event, context) => {
        calls.push({ event, context });
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await gate.promise;
        running -= 1;
      },
    });
    const event = buildEvent();
    const first = post(url, buildDelivery(event));
    const second = post(url, buildDelivery(event));
    await expect.poll(() => calls.length).toBe(1);
    // Give the second request time to reach the handler while the first is held.
    await new Promise((resolve) => setTimeout(resolve, 50));
    gate.resolve();
    const statuses = (await Promise.all([first, second])).map((r) => [r.status, r.body.status]);
    expect(statuses.sort()).toEqual([
      [200, 'duplicate'],
      [200, 'processed'],
    ]);
    expect(calls).toHaveLength(1);
    expect(maxRunning).toBe(1);
  });

  it('answers 500 when onEvent throws, does not mark the event, and the retry succeeds', async () => {
    let failNext = true;
    const errors: unknown[] = [];
    const { url, calls, store } = await setup({
      onEvent: (event, context) => {
        calls.push({ event, context });
        if (failNext) {
          failNext = false;
          throw new Error('database is down');
        }
      },
      onError: (error) => errors.push(error),
    });
    const event = buildEvent();
    const first = await post(url, buildDelivery(event, { attempt: 1 }));
    expect(first).toEqual({ status: 500, body: { received: false, error: 'processing_failed' } });
    expect(JSON.stringify(first.body)).not.toContain('database');
    expect(errors).toHaveLength(1);
    expect(await store.has(event.id)).toBe(false);

    const retry = await post(url, buildDelivery(event, { attempt: 2 }));
    expect(retry.status).toBe(200);
    expect(retry.body.status).toBe('processed');
    expect(calls.map((c) => c.context.attempt)).toEqual([1, 2]);
    expect(await store.has(event.id)).toBe(true);
  });

  it('answers 2xx to a verified event of an unsupported type and ignores it', async () => {
    const { url, calls } = await setup();
    const response = await post(url, buildDelivery({ ...buildEvent(), type: 'document.archived' }));
    expect(response).toEqual({
      status: 200,
      body: { received: true, status: 'ignored', reason: 'unsupported_event_type' },
    });
    expect(calls).toHaveLength(0);
  });

  it('answers 400 to an unsupported type with rejectUnknownEvents', async () => {
    const { url, calls } = await setup({ rejectUnknownEvents: true });
    const response = await post(url, buildDelivery({ ...buildEvent(), type: 'document.archived' }));
    expect(response).toEqual({
      status: 400,
      body: { received: false, error: 'unsupported_event_type' },
    });
    expect(calls).toHaveLength(0);
  });

  it('answers 401 and processes nothing when the signature or timestamp fails', async () => {
    const { url, calls, store } = await setup();
    const event = buildEvent();
    const wrongSecret = buildDelivery(event, { secret: 'whsec_other' });
    expect(await post(url, wrongSecret)).toEqual({
      status: 401,
      body: { received: false, error: 'signature_mismatch' },
    });
    const stale = buildDelivery(event, { timestampSeconds: Math.floor(Date.now() / 1000) - 301 });
    expect((await post(url, stale)).body.error).toBe('timestamp_out_of_tolerance');
    const unsigned = buildDelivery(event);
    delete unsigned.headers['x-service-signature'];
    expect(await post(url, unsigned)).toEqual({
      status: 401,
      body: { received: false, error: 'missing_header' },
    });
    const tampered = buildDelivery(event);
    tampered.body = tampered.body.replace('in_process', 'signed____');
    expect((await post(url, tampered)).status).toBe(401);
    expect(calls).toHaveLength(0);
    expect(await store.has(event.id)).toBe(false);
  });

  it('answers 400 when X-Service-Webhook-Id differs from the payload id', async () => {
    const { url, calls } = await setup();
    const delivery = buildDelivery(buildEvent());
    delivery.headers['x-service-webhook-id'] = 'another-id';
    expect(await post(url, delivery)).toEqual({
      status: 400,
      body: { received: false, error: 'webhook_id_mismatch' },
    });
    expect(calls).toHaveLength(0);
  });

  it('accepts either secret during a rotation', async () => {
    const { url, calls } = await setup({ secret: ['whsec_new', SECRET] });
    expect((await post(url, buildDelivery(buildEvent()))).status).toBe(200);
    const signedWithNew = buildDelivery(buildEvent(), { secret: 'whsec_new' });
    expect((await post(url, signedWithNew)).status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it('answers 413 to a body above maxBodyBytes', async () => {
    const { url, calls } = await setup({ maxBodyBytes: 1024 });
    const event = buildEvent({ tenantId: 'x'.repeat(2048) });
    const response = await fetch(url, { method: 'POST', ...buildDelivery(event) });
    expect(response.status).toBe(413);
    expect(calls).toHaveLength(0);
  });
});

describe('node:http and express-style specifics', () => {
  const options = (): NodeWebhookHandlerOptions => ({
    secret: SECRET,
    store: createMemoryEventStore(),
    onEvent: () => {},
  });

  it('answers 405 to anything but POST', async () => {
    const server = await listen(createNodeWebhookHandler(options()));
    open.push(server);
    const response = await fetch(server.url);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('reads the stream itself when no body parser ran (Express without express.raw)', async () => {
    const server = await listen(createExpressWebhookHandler(options()));
    open.push(server);
    expect((await post(server.url, buildDelivery(buildEvent()))).status).toBe(200);
  });

  it('answers 500 raw_body_unavailable when a JSON parser already consumed the body', async () => {
    const handler = createExpressWebhookHandler(options());
    const server = await listen((req: IncomingMessage, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => handler(Object.assign(req, { body: JSON.parse(text) as unknown }), res));
    });
    open.push(server);
    expect(await post(server.url, buildDelivery(buildEvent()))).toEqual({
      status: 500,
      body: { received: false, error: 'raw_body_unavailable' },
    });
  });

  it('refuses a configuration without a secret at creation time', () => {
    expect(() => createNodeWebhookHandler({ ...options(), secret: '' })).toThrow(TypeError);
    expect(() => createNodeWebhookHandler({ ...options(), secret: [] })).toThrow(TypeError);
  });
});

describe('fastify specifics', () => {
  it('keeps JSON parsing for the rest of the app and answers 415 to non-JSON deliveries', async () => {
    const server = await startFastify({
      secret: SECRET,
      store: createMemoryEventStore(),
      onEvent: () => {},
    });
    open.push(server);
    const base = server.url.replace('/webhooks/signet', '');
    const echo = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await echo.json()).toEqual({ parsed: { a: 1 } });
    const delivery = buildDelivery(buildEvent());
    delivery.headers['content-type'] = 'text/plain';
    expect((await post(server.url, delivery)).status).toBe(415);
  });
});

describe('configuration errors surface at setup', () => {
  it('rejects a Fastify registration without a secret', async () => {
    const app = Fastify();
    await expect(
      app.register(fastifyWebhookPlugin, {
        secret: '',
        store: createMemoryEventStore(),
        onEvent: () => {},
      }),
    ).rejects.toThrow(TypeError);
    await app.close();
  });
});
