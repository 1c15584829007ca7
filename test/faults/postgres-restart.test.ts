import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { storedFiles } from './support.js';
import { documentIdOfKey } from '../../server/src/modules/storage/keys.js';

// A throwaway cluster of this test's own: it is stopped and started under load, which the
// shared test server must never be.
function pgCluster() {
  const root = '/usr/lib/postgresql';
  const version = readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .find((v) => existsSync(path.join(root, v, 'bin', 'initdb')));
  if (!version) throw new Error('PostgreSQL server binaries not found');
  const bin = path.join(root, version, 'bin');
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-pg-restart-'));
  chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]]
      : [path.join(bin, cmd), args];
    const result = spawnSync(file, argv, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
  };
  let port = 0;
  const options = () => `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  return {
    url: () => `postgres://postgres@127.0.0.1:${port}/postgres`,
    init: async () => {
      run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
      port = await new Promise<number>((resolve) => {
        const s = createServer().listen(0, '127.0.0.1', () => {
          const { port: p } = s.address() as { port: number };
          s.close(() => resolve(p));
        });
      });
    },
    start: () =>
      run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-o', options(), 'start']),
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    remove: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Outcome = { phase: string; status: number; ms: number; type: string; code: string | null };

describe('PostgreSQL restarting under load', () => {
  const cluster = pgCluster();
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    await cluster.init();
    cluster.start();
    ctx = await createTestContext('postgres', {
      listen: true,
      env: {
        DATABASE_URL: cluster.url(),
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      },
    });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(async () => {
    await ctx?.close();
    cluster.remove();
  });

  async function call(phase: () => string, i: number): Promise<Outcome> {
    const started = Date.now();
    const kind = i % 5;
    const url =
      kind === 0
        ? '/api/tenants'
        : kind === 1
          ? `/api/documents?tenantId=${tenantId}`
          : kind === 2
            ? `/api/tenants/${tenantId}/credits`
            : '/api/documents/quick-create';
    const init: RequestInit = { headers: { 'x-api-key': apiKey } };
    if (kind === 3) {
      const form = new FormData();
      form.append('tenantId', tenantId);
      form.append('signees', JSON.stringify([{ email: 'a@example.com', name: 'A' }]));
      form.append('file', new Blob([new Uint8Array(makePdf())]), 'c.pdf');
      Object.assign(init, { method: 'POST', body: form });
    } else if (kind === 4) {
      Object.assign(init, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Load ${i}` }),
      });
    }
    const target = kind === 4 ? '/api/tenants' : url;
    const res = await fetch(`${ctx.baseUrl}${target}`, {
      ...init,
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let code: string | null = null;
    try {
      code = (JSON.parse(text) as { code?: string }).code ?? null;
    } catch {
      // not JSON
    }
    return {
      phase: phase(),
      status: res.status,
      ms: Date.now() - started,
      type: res.headers.get('content-type') ?? '',
      code,
    };
  }

  it('answers 503 problem+json fast while the database is down and recovers without a restart', async () => {
    let phase = 'before';
    let stop = false;
    const outcomes: Outcome[] = [];
    const client = async (n: number) => {
      for (let i = n; !stop; i += 8) outcomes.push(await call(() => phase, i));
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

    await pause(1000);
    phase = 'down';
    cluster.stop();
    await pause(1500);
    const ready = await fetch(`${ctx.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('content-type')).toContain('application/problem+json');
    await pause(1500);
    phase = 'restarting';
    cluster.start();
    phase = 'after';
    await pause(3000);
    stop = true;
    await Promise.all(clients);

    for (const o of outcomes) {
      expect([200, 201, 503], JSON.stringify(o)).toContain(o.status);
      expect(o.ms, JSON.stringify(o)).toBeLessThan(8000);
      if (o.status === 503) {
        expect(o.type).toContain('application/problem+json');
        expect(o.code).toBe('service_unavailable');
      }
    }
    const by = (p: string) => outcomes.filter((o) => o.phase === p);
    expect(by('before').length).toBeGreaterThan(0);
    expect(by('before').every((o) => o.status < 300)).toBe(true);
    expect(by('down').filter((o) => o.status === 503).length).toBeGreaterThan(0);
    // The same process serves again: the tail of the run is all successes.
    const after = by('after');
    expect(after.length).toBeGreaterThan(10);
    expect(after.slice(-10).every((o) => o.status < 300)).toBe(true);
    expect((await fetch(`${ctx.baseUrl}/readyz`)).status).toBe(200);

    // Uploads refused during the outage left no file behind.
    const ids = new Set(
      (await ctx.db.kysely.selectFrom('documents').select('id').execute()).map((r) => r.id),
    );
    for (const f of storedFiles(ctx.config.dataDir)) {
      expect(ids.has(documentIdOfKey(f.key)!), f.key).toBe(true);
    }
  });
});
