// Start-up of the production build: `npx tsx bench/startup.bench.ts [--runs 5] [--idle 120]`.
// Goals (issue 28): `npm start` of a built tree answers /readyz in < 2 s on SQLite, and the
// service idles under 120 MB resident.
//
// The build (`npm run build`, run first when dist/ is not current) is copied into an empty
// directory with the production dependencies only (test/build/built-tree.ts), then started
// `--runs` times with `npm start`, each on a new SQLite database: the time from spawning npm to
// the first 200 from /readyz (polled every 10 ms), the service's VmRSS 3 s after that, and again
// `--idle` seconds after it with no request meanwhile, once V8's memory reducer has collected
// what the start left behind (test/build/built-tree.ts, measureStarts). The baseline is the same service run from the TypeScript sources
// through tsx (`node bin/signet-dev.mjs serve`, what `npm start` ran before, then after building
// the web app first), measured the same way. Medians, with the spread (min-max).
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  measureStarts,
  prepareBuiltTree,
  ROOT,
  type StartFigures,
} from '../test/build/built-tree.js';
import { ensureCurrentBuild, isMain, median } from './support/processes.js';

/** How the benchmark runs. */
export type StartupBenchOptions = {
  runs?: number;
  idleSeconds?: number;
  log?: (line: string) => void;
};

/** A median and the spread around it. */
export type Spread = { median: number; min: number; max: number };

/** One way of starting the service, measured. */
export type StartupFigures = {
  readyMs: Spread;
  rssSoon: Spread;
  rssIdle: Spread;
  runs: StartFigures[];
};

/** What the benchmark measured. */
export type StartupBenchResult = {
  name: 'startup';
  built: StartupFigures;
  sources: StartupFigures;
  idleSeconds: number;
  readyGoalMs: number;
  rssGoalBytes: number;
  passed: boolean;
};

const SOON_MS = 3000;
const READY_GOAL_MS = 2000;
const RSS_GOAL_BYTES = 120 * 1024 * 1024;

function spread(values: number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

function summarise(runs: StartFigures[]): StartupFigures {
  return {
    readyMs: spread(runs.map((r) => r.readyMs)),
    rssSoon: spread(runs.map((r) => r.rssSoon)),
    rssIdle: spread(runs.map((r) => r.rssIdle)),
    runs,
  };
}

/** Builds when needed, then measures the built tree and the sources; never leaves a child. */
export async function runStartupBench(
  options: StartupBenchOptions = {},
): Promise<StartupBenchResult> {
  const runs = options.runs ?? 5;
  const idleSeconds = options.idleSeconds ?? 120;
  const log = options.log ?? (() => {});
  await ensureCurrentBuild(log);
  const tree = await prepareBuiltTree();
  try {
    log(`built tree in ${tree.dir}: npm start, ${runs} starts`);
    const built = await measureStarts(tree.dir, {
      runs,
      soonMs: SOON_MS,
      idleMs: idleSeconds * 1000,
      log,
    });
    log(`sources: node bin/signet-dev.mjs serve, ${runs} starts`);
    const sources = await measureStarts(ROOT, {
      runs,
      soonMs: SOON_MS,
      idleMs: idleSeconds * 1000,
      dataRoot: path.join(tree.dir, 'data'),
      command: ['node', '--max-semi-space-size=64', 'bin/signet-dev.mjs', 'serve'],
      log,
    });
    const result = {
      name: 'startup' as const,
      built: summarise(built),
      sources: summarise(sources),
      idleSeconds,
      readyGoalMs: READY_GOAL_MS,
      rssGoalBytes: RSS_GOAL_BYTES,
      passed: false,
    };
    result.passed =
      result.built.readyMs.median < READY_GOAL_MS && result.built.rssIdle.median < RSS_GOAL_BYTES;
    return result;
  } finally {
    await tree.remove();
  }
}

/** `median (min-max)` of milliseconds or bytes. */
export function formatSpread(s: Spread, unit: 'ms' | 'MiB'): string {
  const f = (n: number) => (unit === 'ms' ? n.toFixed(0) : (n / 1024 / 1024).toFixed(1));
  return `${f(s.median)} ${unit} (${f(s.min)}-${f(s.max)})`;
}

/** The human-readable report of a result. */
export function formatStartupBench(result: StartupBenchResult): string {
  const line = (name: string, f: StartupFigures) =>
    `${name}: /readyz ${formatSpread(f.readyMs, 'ms')}; RSS ${SOON_MS / 1000} s after ` +
    `${formatSpread(f.rssSoon, 'MiB')}, idle ${result.idleSeconds} s after ${formatSpread(f.rssIdle, 'MiB')}`;
  return [
    `medians (min-max) of ${result.built.runs.length} starts each, SQLite, a new database each`,
    line('built tree, npm start', result.built),
    line('sources through tsx', result.sources),
    `goals: /readyz < ${result.readyGoalMs} ms, idle RSS < ${result.rssGoalBytes / 1024 / 1024} MiB: ` +
      (result.passed ? 'PASS' : 'FAIL'),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '5' }, idle: { type: 'string', default: '120' } },
  });
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  try {
    const result = await runStartupBench({
      runs: Number(values.runs),
      idleSeconds: Number(values.idle),
      log: (line) => console.log(line),
    });
    console.log(formatStartupBench(result));
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  }
}
