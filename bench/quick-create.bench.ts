// Quick-create throughput against a bare Fastify upload handler:
// `npx tsx bench/quick-create.bench.ts [--rounds 5] [--duration 10] [--warmup 5]
// [--connections 10] [--engine sqlite|postgres] [--bare-fsync] [--profile DIR]`. Goal (issue 3): POST /api/documents/quick-create with a
// 200 KB PDF and two signees reaches at least 60% of the requests per second of a bare
// Fastify 5 route that streams the same multipart upload (same @fastify/multipart) to disk.
//
// Both servers are child processes, the load generator (autocannon) runs here; targets
// alternate A B, B A, ... per round so drift of the machine falls on both; figures are medians.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makePdf } from '../test/helpers/pdf.js';
import { startBenchPostgres, type BenchPostgres } from './support/postgres.js';
import {
  createChildren,
  createKeyAndTenant,
  freePort,
  isMain,
  median,
  startService,
  waitForOk,
} from './support/processes.js';
import { runAutocannon, type LoadRun } from './support/autocannon.js';

/** How the benchmark runs; every field has a default. */
export type QuickCreateBenchOptions = {
  rounds?: number;
  durationSeconds?: number;
  warmupSeconds?: number;
  connections?: number;
  /** The service's database; PostgreSQL is a throwaway cluster with fsync on. */
  engine?: 'sqlite' | 'postgres';
  /** Let the baseline fsync each file too, as the service does (informative, not the goal's). */
  bareFsync?: boolean;
  /** Write a V8 CPU profile of the real service process into this directory. */
  profileDir?: string | null;
  log?: (line: string) => void;
};

/** What the benchmark measured. */
export type QuickCreateBenchResult = {
  name: 'quick-create';
  settings: Required<Omit<QuickCreateBenchOptions, 'log' | 'profileDir'>> & {
    pdfBytes: number;
    bodyBytes: number;
  };
  bare: { runs: LoadRun[]; medianRequestsPerSecond: number; medianLatencyP50Ms: number };
  service: { runs: LoadRun[]; medianRequestsPerSecond: number; medianLatencyP50Ms: number };
  ratio: number;
  goal: number;
  passed: boolean;
};

const GOAL = 0.6;
const PDF_BYTES = 200 * 1000;
const BOUNDARY = '----signet-bench-4f1d2c';
const BARE_SERVER = fileURLToPath(new URL('./support/bare-upload-server.ts', import.meta.url));

/** The multipart body, built once: tenantId, two signees, and a valid ~200 KB PDF. */
export function buildQuickCreateBody(tenantId: string, pdf: Buffer): Buffer {
  const field = (name: string, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const signees = [
    { email: 'alice@example.com', name: 'Alice Example' },
    { email: 'bob@example.com', name: 'Bob Example' },
  ];
  return Buffer.concat([
    Buffer.from(field('tenantId', tenantId) + field('signees', JSON.stringify(signees))),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="contract.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    pdf,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

async function load(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  settings: { connections: number; duration: number },
): Promise<LoadRun> {
  return runAutocannon({
    url,
    method: 'POST',
    body,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    ...settings,
  });
}

const summarize = (runs: LoadRun[]) => ({
  runs,
  medianRequestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
  medianLatencyP50Ms: median(runs.map((r) => r.latencyP50Ms)),
});

/** Starts both servers, measures them in alternating rounds, stops them; never leaves a child. */
export async function runQuickCreateBench(
  options: QuickCreateBenchOptions = {},
): Promise<QuickCreateBenchResult> {
  const rounds = options.rounds ?? 5;
  const durationSeconds = options.durationSeconds ?? 10;
  const warmupSeconds = options.warmupSeconds ?? 5;
  const connections = options.connections ?? 10;
  const engine = options.engine ?? 'sqlite';
  const bareFsync = options.bareFsync ?? false;
  const log = options.log ?? (() => {});
  const children = createChildren();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-bench-qc-'));
  const bareDir = mkdtempSync(path.join(tmpdir(), 'signet-bench-bare-'));
  let postgres: BenchPostgres | null = null;
  try {
    if (engine === 'postgres') postgres = await startBenchPostgres({ durable: true });
    const barePort = await freePort();
    const bare = children.start([
      '--import',
      'tsx',
      BARE_SERVER,
      String(barePort),
      bareDir,
      ...(bareFsync ? ['--fsync'] : []),
    ]);
    const bareUrl = `http://127.0.0.1:${barePort}/upload`;
    const service = await startService(children, {
      dataDir,
      databaseUrl: postgres?.url,
      nodeArgs: options.profileDir
        ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profileDir)}`]
        : [],
    });
    await waitForOk(`http://127.0.0.1:${barePort}/`, bare);
    const { apiKey, tenantId } = await createKeyAndTenant(service.base);
    const pdf = makePdf({ pages: 2, padBytes: PDF_BYTES - makePdf({ pages: 2 }).length - 40 });
    const body = buildQuickCreateBody(tenantId, pdf);
    const serviceUrl = `${service.base}/api/documents/quick-create`;
    const auth = { 'x-api-key': apiKey };

    const probe = await fetch(serviceUrl, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: new Uint8Array(body),
    });
    if (probe.status !== 201)
      throw new Error(`quick-create probe: ${probe.status} ${await probe.text()}`);

    log(`warming up both targets for ${warmupSeconds} s each`);
    const warmup = { connections, duration: warmupSeconds };
    await load(bareUrl, body, {}, warmup);
    await load(serviceUrl, body, auth, warmup);

    const settings = { connections, duration: durationSeconds };
    const bareRuns: LoadRun[] = [];
    const serviceRuns: LoadRun[] = [];
    const check = (what: string, run: LoadRun) => {
      if (run.non2xx + run.errors > 0) {
        throw new Error(`${what}: ${run.non2xx} non-2xx and ${run.errors} errors`);
      }
      return run;
    };
    for (let round = 1; round <= rounds; round++) {
      const measureBare = async () =>
        bareRuns.push(check('bare', await load(bareUrl, body, {}, settings)));
      const measureService = async () =>
        serviceRuns.push(check('service', await load(serviceUrl, body, auth, settings)));
      if (round % 2 === 1) {
        await measureBare();
        await measureService();
      } else {
        await measureService();
        await measureBare();
      }
      const b = bareRuns.at(-1)!.requestsPerSecond;
      const s = serviceRuns.at(-1)!.requestsPerSecond;
      log(
        `round ${round}/${rounds}: bare ${b.toFixed(0)} req/s, service ${s.toFixed(0)} req/s (${((s / b) * 100).toFixed(1)}%)`,
      );
    }
    await children.stopAll();
    const bareFigures = summarize(bareRuns);
    const serviceFigures = summarize(serviceRuns);
    const ratio = serviceFigures.medianRequestsPerSecond / bareFigures.medianRequestsPerSecond;
    return {
      name: 'quick-create',
      settings: {
        rounds,
        durationSeconds,
        warmupSeconds,
        connections,
        engine,
        bareFsync,
        pdfBytes: pdf.length,
        bodyBytes: body.length,
      },
      bare: bareFigures,
      service: serviceFigures,
      ratio,
      goal: GOAL,
      passed: ratio >= GOAL,
    };
  } finally {
    await children.stopAll();
    await postgres?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(bareDir, { recursive: true, force: true });
  }
}

/** The human-readable report of a result. */
export function formatQuickCreateBench(result: QuickCreateBenchResult): string {
  const { settings: s } = result;
  const row = (label: string, f: QuickCreateBenchResult['bare']) =>
    `  ${label.padEnd(40)}${f.runs.map((r) => r.requestsPerSecond.toFixed(0).padStart(6)).join('')}` +
    `   median ${f.medianRequestsPerSecond.toFixed(0).padStart(5)} req/s, p50 ${f.medianLatencyP50Ms.toFixed(1)} ms`;
  return [
    `quick-create, ${(s.pdfBytes / 1000).toFixed(0)} KB PDF + 2 signees (${s.bodyBytes} byte body); ` +
      `autocannon ${s.connections} connections, ${s.rounds} rounds x ${s.durationSeconds} s per target ` +
      `(alternating) after ${s.warmupSeconds} s warm-up; ${s.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL (fsync on)'} + local files, LOG_LEVEL=warn`,
    'req/s per round:',
    row(`bare Fastify + multipart -> disk${s.bareFsync ? ' + fsync' : ''}`, result.bare),
    row('POST /api/documents/quick-create', result.service),
    `ratio of medians: ${(result.ratio * 100).toFixed(1)}% (goal >= ${result.goal * 100}%): ${result.passed ? 'PASS' : 'FAIL'}`,
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
      engine: { type: 'string', default: 'sqlite' },
      'bare-fsync': { type: 'boolean', default: false },
      profile: { type: 'string' },
    },
  });
  // The 'exit' hook installed by createChildren kills the servers.
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  try {
    const result = await runQuickCreateBench({
      rounds: Number(values.rounds),
      durationSeconds: Number(values.duration),
      warmupSeconds: Number(values.warmup),
      connections: Number(values.connections),
      engine: values.engine === 'postgres' ? 'postgres' : 'sqlite',
      bareFsync: values['bare-fsync'],
      profileDir: values.profile ?? null,
      log: (line) => console.log(line),
    });
    console.log(formatQuickCreateBench(result));
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  }
}
