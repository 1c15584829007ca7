// Quick-create throughput against a bare Fastify upload handler:
// `npx tsx bench/quick-create.bench.ts [--rounds 5] [--duration 10] [--warmup 5]
// [--connections 10] [--engine sqlite|postgres] [--profile DIR]`. Goal (issue 3): POST
// /api/documents/quick-create with a 200 KB PDF and two signees reaches at least 60% of the
// requests per second of a bare Fastify 5 route that streams the same multipart upload (same
// @fastify/multipart) to disk.
//
// A second baseline, informative only, is the same bare route made durable as the service is:
// each file fsynced before the answer (the service also fsyncs its SQLite commit). Every
// server is a child process and the load generator (autocannon) runs here; the order of the
// targets rotates each round so drift of the machine falls on all; figures are medians. The
// servers' CPU time per request (all their threads) is printed too: on this shared 2-core
// machine it varies less than requests per second. Stored files are emptied after each window
// and a run right after another waits a minute (support/scratch-files.ts): deleting the last
// run's files made creating files slow for minutes, unevenly across the targets.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
  withCpuPerRequest,
} from './support/processes.js';
import { runAutocannon, type LoadRun } from './support/autocannon.js';
import { emptyFiles, markDeletion, settleAfterDeletion } from './support/scratch-files.js';

/** How the benchmark runs; every field has a default. */
export type QuickCreateBenchOptions = {
  rounds?: number;
  durationSeconds?: number;
  warmupSeconds?: number;
  connections?: number;
  /** The service's database; PostgreSQL is a throwaway cluster with fsync on. */
  engine?: 'sqlite' | 'postgres';
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
  bare: TargetFigures;
  /** The bare route fsyncing each file before answering, as the service does: the goal's. */
  bareDurable: TargetFigures;
  service: TargetFigures;
  /** The same request with `externalId` and `metadata` parts (issue 48). */
  withReferences: TargetFigures;
  /** service / bare, informative (issue 3's goal was 60% of it). */
  ratio: number;
  /** service / bareDurable: the goal's (issue 30). */
  durableRatio: number;
  /** withReferences / bareDurable; within 3 points of durableRatio (issue 48). */
  referencesRatio: number;
  referencesPassed: boolean;
  goal: number;
  passed: boolean;
};

// Of the bare handler that fsyncs each file as the service does (issue 30; issue 3 asked for
// 60% of the bare handler that does not).
const GOAL = 0.9;
const PDF_BYTES = 200 * 1000;
/** The multipart boundary of buildQuickCreateBody. */
export const BOUNDARY = '----signet-bench-4f1d2c';
const BARE_SERVER = fileURLToPath(new URL('./support/bare-upload-server.ts', import.meta.url));

/** The multipart body, built once: tenantId, two signees, more text parts, a ~200 KB PDF. */
export function buildQuickCreateBody(
  tenantId: string,
  pdf: Buffer,
  extra: Record<string, string> = {},
): Buffer {
  const field = (name: string, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const signees = [
    { email: 'alice@example.com', name: 'Alice Example' },
    { email: 'bob@example.com', name: 'Bob Example' },
  ];
  return Buffer.concat([
    Buffer.from(
      field('tenantId', tenantId) +
        field('signees', JSON.stringify(signees)) +
        Object.entries(extra)
          .map(([name, value]) => field(name, value))
          .join(''),
    ),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="contract.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    pdf,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** A server under load, the body it is sent; `files` is where it stores uploads. */
type Target = {
  name: string;
  url: string;
  pid: number;
  headers: Record<string, string>;
  files: string;
  body: Buffer;
};

// Issue 48: the integrator's references on a quick-create must cost at most 3 points of ratio.
const REFERENCES_POINTS = 3;
const REFERENCES = {
  externalId: 'crm-deal-1042',
  metadata: JSON.stringify({ dealId: '1042', region: 'emea', owner: 'ada@example.com' }),
};

async function load(
  target: Target,
  settings: { connections: number; duration: number },
): Promise<Run> {
  return withCpuPerRequest(target.pid, () =>
    runAutocannon({
      url: target.url,
      method: 'POST',
      body: target.body,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...target.headers },
      ...settings,
    }),
  );
}

/** One measured round of a target, with the server's CPU time per request. */
export type Run = LoadRun & { cpuMicrosPerRequest: number | null };
/** A target's rounds and their medians. */
export type TargetFigures = {
  runs: Run[];
  medianRequestsPerSecond: number;
  medianLatencyP50Ms: number;
  medianCpuMicrosPerRequest: number | null;
};

/** The medians of a target's rounds. */
export const summarize = (runs: Run[]): TargetFigures => ({
  runs,
  medianRequestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
  medianLatencyP50Ms: median(runs.map((r) => r.latencyP50Ms)),
  medianCpuMicrosPerRequest: runs.every((r) => r.cpuMicrosPerRequest !== null)
    ? median(runs.map((r) => r.cpuMicrosPerRequest!))
    : null,
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
  const log = options.log ?? (() => {});
  const children = createChildren();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-bench-qc-'));
  const bareDir = mkdtempSync(path.join(tmpdir(), 'signet-bench-bare-'));
  let postgres: BenchPostgres | null = null;
  try {
    await settleAfterDeletion(log);
    if (engine === 'postgres') postgres = await startBenchPostgres({ durable: true });
    const startBare = async (fsync: boolean) => {
      const port = await freePort();
      const dir = path.join(bareDir, fsync ? 'durable' : 'plain');
      mkdirSync(dir);
      const child = children.start([
        '--import',
        'tsx',
        BARE_SERVER,
        String(port),
        dir,
        ...(fsync ? ['--fsync'] : []),
      ]);
      await waitForOk(`http://127.0.0.1:${port}/`, child);
      return { url: `http://127.0.0.1:${port}/upload`, pid: child.pid!, files: dir };
    };
    const bareServer = await startBare(false);
    const durableServer = await startBare(true);
    const service = await startService(children, {
      dataDir,
      databaseUrl: postgres?.url,
      nodeArgs: options.profileDir
        ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profileDir)}`]
        : [],
    });
    const { apiKey, tenantId } = await createKeyAndTenant(service.base);
    const pdf = makePdf({ pages: 2, padBytes: PDF_BYTES - makePdf({ pages: 2 }).length - 40 });
    const body = buildQuickCreateBody(tenantId, pdf);
    const referencesBody = buildQuickCreateBody(tenantId, pdf, REFERENCES);
    const serviceUrl = `${service.base}/api/documents/quick-create`;
    const auth = { 'x-api-key': apiKey };

    const probe = await fetch(serviceUrl, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: new Uint8Array(body),
    });
    if (probe.status !== 201)
      throw new Error(`quick-create probe: ${probe.status} ${await probe.text()}`);

    const targets: Target[] = [
      { name: 'bare', headers: {}, body, ...bareServer },
      { name: 'bare + fsync', headers: {}, body, ...durableServer },
      { name: 'service', url: serviceUrl, pid: service.pid, headers: auth, files: dataDir, body },
      {
        name: 'service + references',
        url: serviceUrl,
        pid: service.pid,
        headers: auth,
        files: dataDir,
        body: referencesBody,
      },
    ];
    const runs = new Map<string, Run[]>(targets.map((t) => [t.name, []]));
    const measure = async (target: Target, duration: number) => {
      const run = await load(target, { connections, duration });
      if (run.non2xx + run.errors > 0) {
        throw new Error(`${target.name}: ${run.non2xx} non-2xx and ${run.errors} errors`);
      }
      // Thousands of 200 KB files a second: give their space back before the next window.
      emptyFiles(target.files, '.pdf');
      return run;
    };

    log(`warming up the four targets for ${warmupSeconds} s each`);
    for (const target of targets) await measure(target, warmupSeconds);

    for (let round = 1; round <= rounds; round++) {
      const order = targets.map((_, i) => targets[(i + round - 1) % targets.length]!);
      for (const target of order)
        runs.get(target.name)!.push(await measure(target, durationSeconds));
      const last = (name: string) => runs.get(name)!.at(-1)!.requestsPerSecond;
      log(
        `round ${round}/${rounds}: bare ${last('bare').toFixed(0)} req/s, bare + fsync ` +
          `${last('bare + fsync').toFixed(0)} req/s, service ${last('service').toFixed(0)} req/s, ` +
          `with references ${last('service + references').toFixed(0)} req/s ` +
          `(${((last('service') / last('bare')) * 100).toFixed(1)}% of bare)`,
      );
    }
    await children.stopAll();
    const bare = summarize(runs.get('bare')!);
    const bareDurable = summarize(runs.get('bare + fsync')!);
    const serviceFigures = summarize(runs.get('service')!);
    const withReferences = summarize(runs.get('service + references')!);
    const durableRatio =
      serviceFigures.medianRequestsPerSecond / bareDurable.medianRequestsPerSecond;
    const referencesRatio =
      withReferences.medianRequestsPerSecond / bareDurable.medianRequestsPerSecond;
    const ratio = serviceFigures.medianRequestsPerSecond / bare.medianRequestsPerSecond;
    return {
      name: 'quick-create',
      settings: {
        rounds,
        durationSeconds,
        warmupSeconds,
        connections,
        engine,
        pdfBytes: pdf.length,
        bodyBytes: body.length,
      },
      bare,
      bareDurable,
      service: serviceFigures,
      withReferences,
      ratio,
      durableRatio,
      referencesRatio,
      referencesPassed: (durableRatio - referencesRatio) * 100 <= REFERENCES_POINTS,
      goal: GOAL,
      passed: durableRatio >= GOAL,
    };
  } finally {
    await children.stopAll();
    await postgres?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(bareDir, { recursive: true, force: true });
    markDeletion();
  }
}

/** The human-readable report of a result. */
export function formatQuickCreateBench(result: QuickCreateBenchResult): string {
  const { settings: s } = result;
  const row = (label: string, f: TargetFigures) =>
    `  ${label.padEnd(40)}${f.runs.map((r) => r.requestsPerSecond.toFixed(0).padStart(6)).join('')}` +
    `   median ${f.medianRequestsPerSecond.toFixed(0).padStart(5)} req/s, p50 ${f.medianLatencyP50Ms.toFixed(1)} ms` +
    (f.medianCpuMicrosPerRequest === null
      ? ''
      : `, server CPU ${f.medianCpuMicrosPerRequest.toFixed(0)} µs/request`);
  return [
    `quick-create, ${(s.pdfBytes / 1000).toFixed(0)} KB PDF + 2 signees (${s.bodyBytes} byte body); ` +
      `autocannon ${s.connections} connections, ${s.rounds} rounds x ${s.durationSeconds} s per target ` +
      `(rotating order) after ${s.warmupSeconds} s warm-up; ${s.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL (fsync on)'} + local files, LOG_LEVEL=warn`,
    'req/s per round:',
    row('bare Fastify + multipart -> disk', result.bare),
    row('bare, each file fsynced (the goal is against it)', result.bareDurable),
    row('POST /api/documents/quick-create', result.service),
    row('... with externalId and metadata', result.withReferences),
    `ratio of medians to the fsyncing bare route: ${(result.durableRatio * 100).toFixed(1)}% (goal >= ${result.goal * 100}%): ${result.passed ? 'PASS' : 'FAIL'}; ` +
      `${(result.ratio * 100).toFixed(1)}% of the bare route that does not fsync`,
    `with externalId and metadata: ${(result.referencesRatio * 100).toFixed(1)}% of the fsyncing bare route, ` +
      `${((result.durableRatio - result.referencesRatio) * 100).toFixed(1)} points below (goal <= ${REFERENCES_POINTS}): ${result.referencesPassed ? 'PASS' : 'FAIL'}`,
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
      profileDir: values.profile ?? null,
      log: (line) => console.log(line),
    });
    console.log(formatQuickCreateBench(result));
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  }
}
