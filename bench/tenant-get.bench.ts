// Throughput of the authenticated `GET /api/tenants/{tenantId}` against a bare Fastify route:
// `npx tsx bench/tenant-get.bench.ts [--rounds 5] [--duration 10] [--warmup 5]
// [--connections 50] [--profile DIR]`. Goal (issue 2): the real route sustains at least 40%
// of the bare route's requests per second, both measured in the same run with autocannon, on
// SQLite. `--profile DIR` writes a V8 CPU profile of the service process there.
//
// Each server is a child process of its own so the load generator (this process) never
// shares its event loop. The targets alternate A B, B A, ... for every round so slow drift
// of the machine (other processes, thermal) falls on both alike; the figures are medians.
// Each run also reads the server's CPU time from /proc: CPU per request is the figure to
// trust when other work competes for the two cores and req/s swings from run to run.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  createChildren,
  createKeyAndTenant,
  freePort,
  isMain,
  median,
  startService,
  waitForOk,
  withCpuPerRequest,
} from './support/processes.js';
import { runAutocannon, type LoadRun } from './support/autocannon.js';

/** How the benchmark runs; every field has a default. */
export type TenantGetBenchOptions = {
  rounds?: number;
  durationSeconds?: number;
  warmupSeconds?: number;
  connections?: number;
  /** Write a V8 CPU profile of the real service process into this directory. */
  profileDir?: string | null;
  log?: (line: string) => void;
};

/** One autocannon run against one target, with the server's CPU time. */
export type BenchRun = LoadRun & {
  /** CPU time (user + system) the server process spent per response; null off Linux. */
  serverCpuMicrosPerRequest: number | null;
};

/** One target's rounds and their medians. */
export type TargetFigures = {
  url: string;
  runs: BenchRun[];
  medianRequestsPerSecond: number;
  medianLatencyP50Ms: number;
  medianLatencyP99Ms: number;
  medianServerCpuMicrosPerRequest: number | null;
};

/** What the benchmark measured, for the console and for bench/run-all.ts. */
export type TenantGetBenchResult = {
  name: 'tenant-get';
  settings: Required<Omit<TenantGetBenchOptions, 'log' | 'profileDir'>> & {
    pipelining: number;
    rateLimitPerSecond: number;
    rateLimitBurst: number;
  };
  bare: TargetFigures;
  service: TargetFigures;
  /** service median req/s divided by bare median req/s. */
  ratio: number;
  /**
   * Bare CPU per request divided by service CPU per request: how many times more work a
   * service request is, a figure other load on the machine skews far less than req/s.
   */
  cpuRatio: number | null;
  goal: number;
  passed: boolean;
  /** Other load on the machine skews both targets; the 1-minute load average says how much. */
  machine: { cpus: number; loadAverageBefore: number; loadAverageAfter: number };
};

// Issue 2 asked for 40%; issue 30 raises it.
const GOAL = 0.6;
const PIPELINING = 1;
// RATE_LIMIT_PER_SECOND and RATE_LIMIT_BURST as startService sets them: the per-key token
// bucket runs on every request but never refuses one.
const RATE_LIMIT = 1e9;
const SELF = fileURLToPath(import.meta.url);

type Target = { url: string; pid: number; headers?: Record<string, string> };

async function load(
  target: Target,
  settings: { connections: number; duration: number },
): Promise<BenchRun> {
  const { cpuMicrosPerRequest, ...r } = await withCpuPerRequest(target.pid, () =>
    runAutocannon({
      url: target.url,
      pipelining: PIPELINING,
      headers: target.headers,
      ...settings,
    }),
  );
  return { ...r, serverCpuMicrosPerRequest: cpuMicrosPerRequest };
}

function pidOf(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error('a server process did not start');
  return child.pid;
}

function figures(url: string, runs: BenchRun[]): TargetFigures {
  return {
    url,
    runs,
    medianRequestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    medianLatencyP50Ms: median(runs.map((r) => r.latencyP50Ms)),
    medianLatencyP99Ms: median(runs.map((r) => r.latencyP99Ms)),
    medianServerCpuMicrosPerRequest: runs.every((r) => r.serverCpuMicrosPerRequest !== null)
      ? median(runs.map((r) => r.serverCpuMicrosPerRequest!))
      : null,
  };
}

/** Starts both servers, measures them in alternating rounds, stops them; never leaves a child. */
export async function runTenantGetBench(
  options: TenantGetBenchOptions = {},
): Promise<TenantGetBenchResult> {
  const rounds = options.rounds ?? 5;
  const durationSeconds = options.durationSeconds ?? 10;
  const warmupSeconds = options.warmupSeconds ?? 5;
  const connections = options.connections ?? 50;
  const log = options.log ?? (() => {});
  const children = createChildren();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-bench-'));
  // Also on exit, after the children are killed: Ctrl-C leaves through process.exit.
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  process.once('exit', removeDataDir);
  const loadAverageBefore = loadavg()[0];

  try {
    const barePort = await freePort();
    const bare = children.start(['--import', 'tsx', SELF, '--bare-server', String(barePort)]);
    const bareUrl = `http://127.0.0.1:${barePort}/`;
    const nodeArgs = options.profileDir
      ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profileDir)}`]
      : [];
    const [service] = await Promise.all([
      startService(children, { dataDir, nodeArgs }),
      waitForOk(bareUrl, bare),
    ]);
    const { base } = service;
    const { apiKey, tenantId } = await createKeyAndTenant(base);
    const bareTarget: Target = { url: bareUrl, pid: pidOf(bare) };
    const serviceTarget: Target = {
      url: `${base}/api/tenants/${tenantId}`,
      pid: service.pid,
      headers: { 'x-api-key': apiKey },
    };

    const check = await fetch(serviceTarget.url, { headers: serviceTarget.headers });
    const body = (await check.json()) as { membership?: { tenantId: string; role: string } };
    if (check.status !== 200 || body.membership?.tenantId !== tenantId) {
      throw new Error(`GET tenant answered ${check.status} ${JSON.stringify(body)}`);
    }

    log(`warming up both targets for ${warmupSeconds} s each`);
    await load(bareTarget, { connections, duration: warmupSeconds });
    const warm = await load(serviceTarget, { connections, duration: warmupSeconds });
    if (warm.non2xx + warm.errors > 0) {
      throw new Error(`warm-up: ${warm.non2xx} non-2xx, ${warm.errors} errors on the service`);
    }

    const settings = { connections, duration: durationSeconds };
    const bareRuns: BenchRun[] = [];
    const serviceRuns: BenchRun[] = [];
    for (let round = 1; round <= rounds; round++) {
      const measureBare = async () => bareRuns.push(await load(bareTarget, settings));
      const measureService = async () => {
        const run = await load(serviceTarget, settings);
        if (run.non2xx + run.errors + run.timeouts > 0) {
          throw new Error(
            `round ${round}: ${run.non2xx} non-2xx, ${run.errors} errors, ${run.timeouts} timeouts on the service route`,
          );
        }
        serviceRuns.push(run);
      };
      if (round % 2 === 1) {
        await measureBare();
        await measureService();
      } else {
        await measureService();
        await measureBare();
      }
      const b = bareRuns.at(-1)!;
      const s = serviceRuns.at(-1)!;
      log(
        `round ${round}/${rounds}: bare ${b.requestsPerSecond.toFixed(0)} req/s, service ${s.requestsPerSecond.toFixed(0)} req/s (${((s.requestsPerSecond / b.requestsPerSecond) * 100).toFixed(1)}%)`,
      );
    }
    // Stopped before the figures are read so a --cpu-prof profile gets written.
    await children.stopAll();

    const bareFigures = figures(bareUrl, bareRuns);
    const serviceFigures = figures(`${base}/api/tenants/{tenantId}`, serviceRuns);
    const ratio = serviceFigures.medianRequestsPerSecond / bareFigures.medianRequestsPerSecond;
    const bareCpu = bareFigures.medianServerCpuMicrosPerRequest;
    const serviceCpu = serviceFigures.medianServerCpuMicrosPerRequest;
    return {
      name: 'tenant-get',
      settings: {
        rounds,
        durationSeconds,
        warmupSeconds,
        connections,
        pipelining: PIPELINING,
        rateLimitPerSecond: RATE_LIMIT,
        rateLimitBurst: RATE_LIMIT,
      },
      bare: bareFigures,
      service: serviceFigures,
      ratio,
      cpuRatio: bareCpu === null || serviceCpu === null ? null : bareCpu / serviceCpu,
      goal: GOAL,
      passed: ratio >= GOAL,
      machine: { cpus: cpus().length, loadAverageBefore, loadAverageAfter: loadavg()[0] },
    };
  } finally {
    await children.stopAll();
    process.removeListener('exit', removeDataDir);
    removeDataDir();
  }
}

/** The human-readable report of a result. */
export function formatTenantGetBench(result: TenantGetBenchResult): string {
  const { bare, service, settings } = result;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const row = (label: string, f: TargetFigures) =>
    `  ${label.padEnd(34)} ${f.runs.map((r) => r.requestsPerSecond.toFixed(0).padStart(7)).join('')}` +
    `   median ${f.medianRequestsPerSecond.toFixed(0).padStart(6)} req/s` +
    `   p50 ${f.medianLatencyP50Ms.toFixed(1)} ms, p99 ${f.medianLatencyP99Ms.toFixed(1)} ms`;
  return [
    `autocannon: ${settings.connections} connections, pipelining ${settings.pipelining}, ` +
      `${settings.rounds} rounds x ${settings.durationSeconds} s per target (alternating), ` +
      `after ${settings.warmupSeconds} s warm-up each; SQLite, LOG_LEVEL=warn`,
    `machine: ${result.machine.cpus} CPUs, 1-minute load average ` +
      `${result.machine.loadAverageBefore.toFixed(2)} before, ${result.machine.loadAverageAfter.toFixed(2)} after`,
    `rate limiter: RATE_LIMIT_PER_SECOND=RATE_LIMIT_BURST=${settings.rateLimitPerSecond.toExponential(0)}, ` +
      `so the per-key token bucket runs on every request but never refuses one`,
    `req/s per round:`,
    row('bare Fastify GET / (constant JSON)', bare),
    row('GET /api/tenants/{tenantId}', service),
    `service 2xx only: ${service.runs.every((r) => r.non2xx === 0 && r.errors === 0) ? 'yes' : 'NO'}` +
      ` (${service.runs.reduce((n, r) => n + r.total, 0)} requests)`,
    `ratio of medians: ${pct(result.ratio)} (goal >= ${pct(result.goal)}): ` +
      (result.passed ? 'PASS' : 'FAIL'),
    bare.medianServerCpuMicrosPerRequest === null ||
    service.medianServerCpuMicrosPerRequest === null ||
    result.cpuRatio === null
      ? 'server CPU per request: not available on this system'
      : `server CPU per request (median): bare ${bare.medianServerCpuMicrosPerRequest.toFixed(0)} µs, ` +
        `service ${service.medianServerCpuMicrosPerRequest.toFixed(0)} µs; CPU-time ratio ` +
        `${pct(result.cpuRatio)} (bare/service: less skewed by other load than req/s)`,
  ].join('\n');
}

// Child mode: the baseline, a bare Fastify 5 app with one constant JSON route.
async function serveBare(port: number): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port, host: '127.0.0.1' });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

if (isMain(import.meta.url) && process.argv[2] === '--bare-server') {
  await serveBare(Number(process.argv[3]));
} else if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '5' },
      connections: { type: 'string', default: '50' },
      profile: { type: 'string' },
    },
  });
  const positive = (name: keyof typeof values) => {
    const n = Number(values[name]);
    if (!(n > 0)) throw new Error(`--${name} must be a positive number`);
    return n;
  };
  const stopOnSignal = () => process.exit(130); // the 'exit' hooks kill the servers
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    const result = await runTenantGetBench({
      rounds: positive('rounds'),
      durationSeconds: positive('duration'),
      warmupSeconds: positive('warmup'),
      connections: positive('connections'),
      profileDir: values.profile ?? null,
      log: (line) => console.log(line),
    });
    console.log(formatTenantGetBench(result));
    if (values.profile) console.log(`CPU profile of the service written to ${values.profile}`);
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  }
}
