import type { LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender } from '../../server/src/modules/webhooks/webhook-sender.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import {
  addWebhook,
  setupTenant,
  triggerDocumentEvent,
  waitForDelivery,
  WEBHOOK_TEST_ENV,
} from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

// A DNS answer chosen by the test: the name "rebind.example.test" resolves to `address`.
function resolvesTo(address: string, family: 4 | 6): LookupFunction {
  const lookup = (
    _host: string,
    options: { all?: boolean },
    callback: (err: null, address: unknown, family?: number) => void,
  ) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return lookup as unknown as LookupFunction;
}

const body = Buffer.from('{"id":"x"}');
const headers = { 'Content-Type': 'application/json' };

describe('connect-time address check (DNS answer injected into the sender)', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('refuses a public-looking name that resolves to a non-public address, without connecting', async () => {
    for (const [address, family] of [
      ['127.0.0.1', 4],
      ['::1', 6],
      ['::ffff:127.0.0.1', 6],
      ['10.0.0.7', 4],
      ['169.254.169.254', 4],
      ['0.0.0.0', 4],
    ] as const) {
      const sender = createWebhookSender({
        allowPrivate: false,
        timeoutMs: 2000,
        lookup: resolvesTo(address, family),
      });
      for (const scheme of ['https', 'http']) {
        // http: is refused before any lookup when private URLs are not allowed; https: reaches
        // the lookup and is refused on the resolved address.
        const result = await sender.send({
          url: `${scheme}://rebind.example.test:${receiver.port}/hook`,
          body,
          headers,
        });
        expect(result.statusCode, address).toBeNull();
        expect(result.error, address).toMatch(/^refused: /);
        if (scheme === 'https') {
          expect(result.error).toMatch(/is not a public address$/);
        }
      }
      sender.close();
    }
    for (const literal of [
      '127.0.0.1',
      '[::1]',
      '[::ffff:7f00:1]',
      '[::127.0.0.1]',
      '[::808:808]',
    ]) {
      const sender = createWebhookSender({ allowPrivate: false, timeoutMs: 2000 });
      const result = await sender.send({
        url: `https://${literal}:${receiver.port}/hook`,
        body,
        headers,
      });
      expect(result.error, literal).toMatch(/^refused: .* is not a public address$/);
      sender.close();
    }
    expect(receiver.connections()).toBe(0);
  });

  it('connects to the address the checked lookup returned (check and connect share one answer)', async () => {
    const sender = createWebhookSender({
      allowPrivate: true,
      timeoutMs: 2000,
      lookup: resolvesTo('127.0.0.1', 4),
    });
    const result = await sender.send({
      url: `http://rebind.example.test:${receiver.port}/via-stub`,
      body,
      headers,
    });
    sender.close();
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect(receiver.received('/via-stub')).toHaveLength(1);
    expect(receiver.received('/via-stub')[0].headers.host).toBe(
      `rebind.example.test:${receiver.port}`,
    );
  });
});

describe.each(ENGINES)('connect-time refusal of a saved URL on %s', (engine) => {
  // Instance A allows private URLs and saves one; instance B, on the same database, does not:
  // B's attempts must be refused when connecting, since the URL passed A's save-time rules.
  let saver: TestContext;
  let sender: TestContext;
  let receiver: Receiver;
  const SECRET_KEY = 'k'.repeat(48);
  beforeAll(async () => {
    saver = await createTestContext(engine, {
      env: { ...WEBHOOK_TEST_ENV, SECRET_KEY },
      workers: false,
    });
    sender = await createTestContext(engine, {
      env: {
        ...WEBHOOK_TEST_ENV,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'false',
        SECRET_KEY,
        DATA_DIR: saver.config.dataDir,
        ...(saver.config.databaseUrl ? { DATABASE_URL: saver.config.databaseUrl } : {}),
      },
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await sender.close();
    await saver.close();
  });

  it('refuses https://localhost:<port> when delivering, and never opens a connection', async () => {
    const { owner, tenant } = await setupTenant(saver);
    const url = `https://localhost:${receiver.port}/hook`;
    const hook = await addWebhook(saver, owner.apiKey, tenant.id, url);
    const refusedAtSave = await sender.app.inject({
      method: 'POST',
      url: `/api/tenants/${tenant.id}/webhooks`,
      headers: { 'x-api-key': owner.apiKey },
      payload: { url },
    });
    expect(refusedAtSave.statusCode).toBe(422);

    const event = await triggerDocumentEvent(saver, owner.apiKey, tenant.id);
    const delivery = await waitForDelivery(
      sender,
      owner.apiKey,
      tenant.id,
      hook.id,
      event.eventId,
      8000,
    );
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toHaveLength(3);
    for (const attempt of delivery.attempts) {
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toMatch(/^refused: (127\.0\.0\.1|::1) is not a public address$/);
    }
    expect(receiver.connections()).toBe(0);
  });
});
