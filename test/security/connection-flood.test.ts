import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';

// Caps small enough for a few hundred sockets to pass them: 30 per address, 50 in all (Node
// refuses past 58). Two attacking addresses, one with twice the sockets of the other, so
// that both caps are reached. The timeouts are longer than the attack, so the caps alone must hold it.
const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: '10000',
  HTTP_BODY_WINDOW_MS: '10000',
  HTTP_BODY_MIN_BYTES: '1024',
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: '30',
  HTTP_MAX_CONNECTIONS: '50',
};
const HARD_CAP = 58;
const ATTACK_MS = 4000;
const ATTACKERS = ['127.0.0.2', '127.0.0.2', '127.0.0.3'];

type LogLine = Record<string, unknown> & { msg: string };
type AttackResult = { opened: number; closedByServer: number; maxLive: number };

/** The test process's open descriptors: the server's, since the attacker runs elsewhere. */
const openDescriptors = () => readdirSync('/proc/self/fd').length;

/** Starts the attacker process (slow-attacker.mjs); resolves with its counts when it ends. */
function attack(port: number, kind: 'body' | 'headers', connections: number) {
  const child = spawn(process.execPath, [
    path.join(import.meta.dirname, 'slow-attacker.mjs'),
    JSON.stringify({
      port,
      kind,
      connections,
      addresses: ATTACKERS,
      trickleMs: 1000,
      reopenMs: 1000,
      durationMs: ATTACK_MS,
    }),
  ]);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  return new Promise<AttackResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => resolve(JSON.parse(out)));
  });
}

/** One request on a new connection from `localAddress`; its status and milliseconds. */
function probe(port: number, urlPath: string, localAddress: string) {
  const started = performance.now();
  return new Promise<{ status: number; ms: number; from: string; urlPath: string }>((resolve) => {
    const req = get(
      { host: '127.0.0.1', port, path: urlPath, localAddress, agent: false },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            from: localAddress,
            urlPath,
          }),
        );
      },
    );
    req.on('error', () =>
      resolve({ status: 0, ms: performance.now() - started, from: localAddress, urlPath }),
    );
  });
}

describe.each(ENGINES)('connection floods on %s', (engine) => {
  let ctx: TestContext;
  let port: number;
  const logs: LogLine[] = [];
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      listen: true,
      env: LIMITS,
      logger: { level: 'warn', stream: { write: (line: string) => logs.push(JSON.parse(line)) } },
    });
    port = Number(new URL(ctx.baseUrl).port);
  });
  afterAll(() => ctx.close());

  it.each(['body', 'headers'] as const)(
    'serves /healthz and /readyz from the attacker’s own address during a slow-%s flood',
    async (kind) => {
      // Warm: the first /readyz opens the database's connections, which are not the attack's.
      await probe(port, '/readyz', '127.0.0.1');
      const baseline = openDescriptors();
      const cutsBefore = logs.length;
      // 300 sockets, each opened again about a second after the server closes it.
      const attacker = attack(port, kind, 300);
      let running = true;
      let maxDescriptors = baseline;
      const probes: Array<Awaited<ReturnType<typeof probe>>> = [];
      const watcher = (async () => {
        // Let the attacker reach the caps before measuring.
        await new Promise((r) => setTimeout(r, 1000));
        for (let i = 0; running; i++) {
          maxDescriptors = Math.max(maxDescriptors, openDescriptors());
          const from = i % 2 === 0 ? ATTACKERS[0] : '127.0.0.1';
          probes.push(await probe(port, i % 4 < 2 ? '/healthz' : '/readyz', from));
          maxDescriptors = Math.max(maxDescriptors, openDescriptors());
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const result = await attacker;
      running = false;
      await watcher;

      // The attacker kept trying: far more sockets than the caps, most closed by the server.
      expect(result.opened).toBeGreaterThan(300);
      expect(result.closedByServer).toBeGreaterThan(0);
      const cuts = logs.slice(cutsBefore).filter((l) => l.reason);
      expect(cuts.some((l) => l.reason === 'address_cap')).toBe(true);
      expect(cuts.some((l) => l.reason === 'connection_cap')).toBe(true);
      expect(cuts[0]).toMatchObject({ clientAddress: expect.stringMatching(/^127\.0\.0\.[23]$/) });

      expect(probes.length).toBeGreaterThan(10);
      expect(probes.filter((p) => p.status !== 200)).toEqual([]);
      // Nine probes in ten under 100 ms, none over a second. Not every one: a probe waits in the
      // kernel's accept queue behind the attacker's newest sockets, each of which costs the
      // server an accept and an eviction, and on a CPU shared with other work that queue now
      // and then takes longer (docs/operations.md, "Slow clients and connection floods").
      const latencies = probes.map((p) => p.ms).sort((a, b) => a - b);
      expect(latencies[Math.floor(latencies.length * 0.9)]).toBeLessThan(100);
      expect(latencies.at(-1)).toBeLessThan(1000);
      // Every connection the server holds is a descriptor: never more than its hard cap (plus
      // the probe's own two ends and a few for the database and the log).
      expect(maxDescriptors - baseline).toBeLessThanOrEqual(HARD_CAP + 10);
      await expect
        .poll(openDescriptors, { timeout: 3000, interval: 100 })
        .toBeLessThanOrEqual(baseline + 2);
      console.info(
        `${engine} slow-${kind}: attacker opened ${result.opened} sockets (at most ${result.maxLive} at once), ` +
          `${cuts.length} cut; descriptors ${baseline} before, at most ${maxDescriptors} during; ` +
          `${probes.length} probes: median ${latencies[latencies.length >> 1].toFixed(1)} ms, ` +
          `90th percentile ${latencies[Math.floor(latencies.length * 0.9)].toFixed(1)} ms, ` +
          `slowest ${latencies.at(-1)!.toFixed(1)} ms`,
      );
    },
  );
});
