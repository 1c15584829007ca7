// handleWebhook and the memory store without HTTP: the edges adapters cannot easily reach.
import { describe, expect, it } from 'vitest';
import {
  createMemoryEventStore,
  handleWebhook,
  type HandleWebhookOptions,
  type WebhookEventStore,
} from '../src/index.js';
import { SECRET, buildDelivery, buildEvent, deferred } from './helpers.js';

function options(overrides: Partial<HandleWebhookOptions> = {}): HandleWebhookOptions {
  const delivery = buildDelivery(buildEvent());
  return {
    rawBody: delivery.body,
    headers: delivery.headers,
    secret: SECRET,
    store: createMemoryEventStore(),
    onEvent: () => {},
    ...overrides,
  };
}

describe('handleWebhook', () => {
  it('reads headers from a fetch Headers object and in any case', async () => {
    const delivery = buildDelivery(buildEvent());
    const fetchHeaders = await handleWebhook(
      options({ ...delivery, rawBody: delivery.body, headers: new Headers(delivery.headers) }),
    );
    expect(fetchHeaders.status).toBe(200);
    const upper = Object.fromEntries(
      Object.entries(delivery.headers).map(([k, v]) => [k.toUpperCase(), v]),
    );
    const record = await handleWebhook(options({ rawBody: delivery.body, headers: upper }));
    expect(record.body).toMatchObject({ status: 'processed' });
  });

  it('treats two signature headers as malformed', async () => {
    const delivery = buildDelivery(buildEvent());
    const signature = delivery.headers['x-service-signature'];
    const headers = { ...delivery.headers, 'x-service-signature': [signature, signature] };
    const result = await handleWebhook(options({ rawBody: delivery.body, headers }));
    expect(result).toEqual({ status: 401, body: { received: false, error: 'malformed_header' } });
  });

  it('answers 400 to a signed body that is not a valid envelope', async () => {
    const delivery = buildDelivery({ ...buildEvent(), data: 'nope' });
    const result = await handleWebhook(
      options({ rawBody: delivery.body, headers: delivery.headers }),
    );
    expect(result).toEqual({ status: 400, body: { received: false, error: 'invalid_payload' } });
  });

  it('answers 400 when X-Service-Webhook-Event differs from the payload type', async () => {
    const delivery = buildDelivery(buildEvent());
    delivery.headers['x-service-webhook-event'] = 'signee.status_changed';
    const result = await handleWebhook(
      options({ rawBody: delivery.body, headers: delivery.headers }),
    );
    expect(result.body).toEqual({ received: false, error: 'event_type_mismatch' });
  });

  it('answers 500 when the store fails, before or after onEvent, and reports it', async () => {
    const errors: unknown[] = [];
    const broken = (failOn: 'has' | 'add'): WebhookEventStore => ({
      has: async () => {
        if (failOn === 'has') throw new Error('has failed');
        return false;
      },
      add: async () => {
        if (failOn === 'add') throw new Error('add failed');
      },
    });
    const onError = (error: unknown) => {
      errors.push(error);
      throw new Error('a broken logger changes nothing');
    };
    for (const failOn of ['has', 'add'] as const) {
      const result = await handleWebhook(options({ store: broken(failOn), onError }));
      expect(result).toEqual({
        status: 500,
        body: { received: false, error: 'processing_failed' },
      });
    }
    expect(errors.map((e) => (e as Error).message)).toEqual(['has failed', 'add failed']);
  });

  it('lets a waiting concurrent delivery process the event when the first one failed', async () => {
    const gate = deferred();
    let calls = 0;
    const base = options({
      onEvent: async () => {
        calls += 1;
        if (calls === 1) {
          await gate.promise;
          throw new Error('first attempt fails');
        }
      },
    });
    const first = handleWebhook(base);
    const second = handleWebhook(base);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toBe(1);
    gate.resolve();
    expect((await first).status).toBe(500);
    expect((await second).body).toMatchObject({ status: 'processed' });
    expect(calls).toBe(2);
  });

  it('does not block deliveries of the same id to an independent store', async () => {
    const gate = deferred();
    const delivery = buildDelivery(buildEvent());
    const held = handleWebhook(
      options({ ...delivery, rawBody: delivery.body, onEvent: () => gate.promise }),
    );
    const other = await handleWebhook(
      options({ rawBody: delivery.body, headers: delivery.headers }),
    );
    expect(other.body).toMatchObject({ status: 'processed' });
    gate.resolve();
    expect((await held).status).toBe(200);
  });
});

describe('createMemoryEventStore', () => {
  it('forgets the oldest ids beyond maxEntries', async () => {
    const store = createMemoryEventStore({ maxEntries: 2 });
    await store.add('a');
    await store.add('b');
    await store.add('c');
    expect([await store.has('a'), await store.has('b'), await store.has('c')]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('refuses a non-positive bound', () => {
    expect(() => createMemoryEventStore({ maxEntries: 0 })).toThrow(TypeError);
  });
});
