import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';

type LogLine = Record<string, unknown> & { msg: string };

// Idle connections from 127.0.0.1, held past the moment they can be judged stalled (100 ms):
// what a reverse proxy's pool of upstream connections looks like between requests.
async function openIdle(ctx: TestContext, count: number): Promise<net.Socket[]> {
  const { port } = new URL(ctx.baseUrl);
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const s = net.connect(Number(port), '127.0.0.1', () => resolve(s));
          s.on('error', reject);
        }),
    ),
  );
  for (const s of sockets) s.on('error', () => {});
  await new Promise((r) => setTimeout(r, 300));
  return sockets;
}

describe.each(ENGINES)('the per-address connection cap and proxies on %s', (engine) => {
  let ctx: TestContext;
  let sockets: net.Socket[] = [];
  const logs: LogLine[] = [];
  const start = (env: Record<string, string>) =>
    createTestContext(engine, {
      listen: true,
      workers: false,
      env: { HTTP_MAX_CONNECTIONS_PER_ADDRESS: '4', ...env },
      logger: { level: 'warn', stream: { write: (line: string) => logs.push(JSON.parse(line)) } },
    });
  const addressCuts = () => logs.filter((l) => l.reason === 'address_cap').length;
  afterEach(async () => {
    for (const s of sockets) s.destroy();
    sockets = [];
    logs.length = 0;
    await ctx.close();
  });

  it('closes an address’s oldest stalled connection past the cap', async () => {
    ctx = await start({});
    sockets = await openIdle(ctx, 4);
    sockets.push(...(await openIdle(ctx, 2)));
    expect(addressCuts()).toBe(2);
    expect(sockets.filter((s) => s.destroyed || s.readableEnded).length).toBe(2);
  });

  it('leaves a proxy named in TRUST_PROXY to the global cap', async () => {
    ctx = await start({ TRUST_PROXY: 'loopback' });
    sockets = await openIdle(ctx, 4);
    sockets.push(...(await openIdle(ctx, 6)));
    expect(addressCuts()).toBe(0);
    expect(sockets.filter((s) => s.destroyed || s.readableEnded).length).toBe(0);
    const health = await fetch(`${ctx.baseUrl}/healthz`);
    expect(health.status).toBe(200);
  });
});
