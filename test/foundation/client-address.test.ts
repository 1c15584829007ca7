import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';

// The audit trail is evidence: the address it records for a step must not be whatever the
// client writes into X-Forwarded-For, unless the operator said a proxy in front sets it.
describe.each(ENGINES)('client address in the audit trail on %s', (engine) => {
  let ctx: TestContext | null = null;
  afterEach(async () => {
    await ctx?.close();
    ctx = null;
  });

  async function recordedAddress(env: Record<string, string>) {
    ctx = await createTestContext(engine, { listen: true, env, workers: false });
    const owner = await createUser(ctx);
    const tenant = await createTenant(ctx, owner.apiKey);
    const created = await quickCreate(
      ctx,
      owner.apiKey,
      { tenantId: tenant.id },
      { 'x-forwarded-for': '203.0.113.7' },
    );
    expect(created.status).toBe(201);
    const trail = await api(
      ctx,
      owner.apiKey,
      'GET',
      `/api/documents/${created.body.document.id}/audit-trail`,
    );
    return trail.body.auditTrail.find((e: { action: string }) => e.action === 'created').ip;
  }

  it('ignores X-Forwarded-For by default: the socket address is recorded', async () => {
    expect(await recordedAddress({})).toBe('127.0.0.1');
  });

  it('uses X-Forwarded-For when the peer is a trusted proxy (TRUST_PROXY)', async () => {
    expect(await recordedAddress({ TRUST_PROXY: '127.0.0.1/32' })).toBe('203.0.113.7');
  });

  it('does not believe a proxy outside TRUST_PROXY', async () => {
    expect(await recordedAddress({ TRUST_PROXY: '10.0.0.0/8' })).toBe('127.0.0.1');
  });
});

describe('TRUST_PROXY setting', () => {
  const load = (value?: string) =>
    loadConfig({ DATA_DIR: '/tmp/signet-unused', SECRET_KEY: 'x'.repeat(32), TRUST_PROXY: value })
      .trustProxy;

  it('parses its forms and refuses anything else at start', () => {
    expect(load()).toBe(false);
    expect(load('false')).toBe(false);
    expect(load('true')).toBe(true);
    expect(load(' 10.0.0.0/8, loopback ,::1 ')).toBe('10.0.0.0/8,loopback,::1');
    for (const bad of ['proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', '2', 'yes']) {
      expect(() => load(bad), bad).toThrow(ConfigError);
    }
  });
});
