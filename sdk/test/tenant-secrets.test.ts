// One receiver for many tenants: the secret is a function of the delivery's tenant, looked up
// from the unverified payload, then the signature is checked with it.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryEventStore,
  createNodeWebhookHandler,
  unverifiedTenantId,
  verifyWebhook,
  type WebhookEvent,
} from '../src/index.js';
import { buildDelivery, buildEvent, listen, post } from './helpers.js';

const TENANT_A = randomUUID();
const TENANT_B = randomUUID();
const SECRETS: Record<string, string> = {
  [TENANT_A]: 'whsec_tenant_a_0123456789',
  [TENANT_B]: 'whsec_tenant_b_0123456789',
};

const open: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

describe('a secret per tenant', () => {
  it('verifyWebhook looks the secret up for the payload tenant, async', async () => {
    const asked: string[] = [];
    const secret = async (tenantId: string) => {
      asked.push(tenantId);
      return SECRETS[tenantId];
    };
    for (const tenantId of [TENANT_A, TENANT_B]) {
      const event = buildEvent({ tenantId });
      const d = buildDelivery(event, { secret: SECRETS[tenantId] });
      const result = await verifyWebhook({
        rawBody: d.body,
        signatureHeader: d.headers['x-service-signature'],
        secret,
        headers: d.headers,
      });
      expect(result).toEqual({ ok: true, event });
    }
    expect(asked).toEqual([TENANT_A, TENANT_B]);

    // A payload naming tenant B signed with tenant A's secret: B's secret does not match it.
    const forged = buildDelivery(buildEvent({ tenantId: TENANT_B }), { secret: SECRETS[TENANT_A] });
    const refused = await verifyWebhook({
      rawBody: forged.body,
      signatureHeader: forged.headers['x-service-signature'],
      secret,
    });
    expect(refused).toEqual({ ok: false, reason: 'signature_mismatch' });

    const stranger = buildDelivery(buildEvent(), { secret: SECRETS[TENANT_A] });
    expect(
      await verifyWebhook({
        rawBody: stranger.body,
        signatureHeader: stranger.headers['x-service-signature'],
        secret,
      }),
    ).toEqual({ ok: false, reason: 'unknown_tenant' });
  });

  it('reads the tenant only from a JSON object with a tenantId string', () => {
    expect(unverifiedTenantId(JSON.stringify({ tenantId: 't1' }))).toBe('t1');
    for (const body of ['not json', '[]', 'null', '{"tenantId":5}', '{"tenantId":""}', '\xff']) {
      expect(unverifiedTenantId(body)).toBeNull();
    }
  });

  it('one node:http receiver serves two tenants and refuses the rest', async () => {
    const seen: WebhookEvent[] = [];
    const server = await listen(
      createNodeWebhookHandler({
        secret: async (tenantId, headers) => {
          expect((headers as Record<string, string>)['x-service-webhook-id']).toBeDefined();
          if (tenantId === 'broken') throw new Error('database down');
          return SECRETS[tenantId] ?? null;
        },
        store: createMemoryEventStore(),
        onEvent: (event) => {
          seen.push(event);
        },
      }),
    );
    open.push(server);

    const a = buildEvent({ tenantId: TENANT_A });
    const b = buildEvent({ tenantId: TENANT_B });
    expect((await post(server.url, buildDelivery(a, { secret: SECRETS[TENANT_A] }))).status).toBe(
      200,
    );
    expect((await post(server.url, buildDelivery(b, { secret: SECRETS[TENANT_B] }))).status).toBe(
      200,
    );
    expect(seen.map((e) => e.tenantId)).toEqual([TENANT_A, TENANT_B]);

    const wrong = buildDelivery(buildEvent({ tenantId: TENANT_A }), {
      secret: SECRETS[TENANT_B],
    });
    expect(await post(server.url, wrong)).toEqual({
      status: 401,
      body: { received: false, error: 'signature_mismatch' },
    });
    const unknown = buildDelivery(buildEvent(), { secret: SECRETS[TENANT_A] });
    expect(await post(server.url, unknown)).toEqual({
      status: 401,
      body: { received: false, error: 'unknown_tenant' },
    });
    const broken = buildDelivery(buildEvent({ tenantId: 'broken' }));
    expect(await post(server.url, broken)).toEqual({
      status: 500,
      body: { received: false, error: 'secret_lookup_failed' },
    });
    expect(seen).toHaveLength(2);
  });

  it('refuses a resolver that is not a function or a secret at setup', () => {
    expect(() =>
      createNodeWebhookHandler({
        secret: 42 as unknown as string,
        store: createMemoryEventStore(),
        onEvent: () => {},
      }),
    ).toThrow(/function returning them/);
  });
});
