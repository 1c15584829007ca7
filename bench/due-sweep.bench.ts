// Finding the due reminders and expiries among 1,000,000 documents in process:
// `npx tsx bench/due-sweep.bench.ts [--engines sqlite,postgres] [--documents 1000000]
// [--sweeps 200]`. Goal (issue 48): one sweep of the job runner over the two kinds
// (`document.expire`, `signee.remind`) costs < 20 ms, median, on SQLite and on PostgreSQL.
//
// Per engine: a fresh database, the real service as a child only to run the migrations and
// make an account and tenant (then stopped, so that its job runner does not take the jobs),
// the listing benchmark's bulk documents (bench/support/bulk-documents.ts) all moved to
// in_process, and for each one an expiry job and a first-reminder job due some time in the next
// 30 days: 2,000,000 pending jobs. Then, in this process, the runner's own queries
// (server/src/jobs/claims.ts): `claim` when nothing is due (most sweeps), `claim` taking 50 of
// 100 due jobs (put back, untimed, after each sweep), and `nextDueAt`, which sets the timer.
import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../server/src/db/database.js';
import { createClaims } from '../server/src/jobs/claims.js';
import { EXPIRE_JOB } from '../server/src/modules/documents/expiry.js';
import { REMIND_JOB } from '../server/src/modules/documents/reminder-policy.js';
import { openBulkTarget, type BulkTarget } from './support/bulk-documents.js';
import { startBenchPostgres, type BenchPostgres } from './support/postgres.js';
import {
  createChildren,
  createKeyAndTenant,
  isMain,
  median,
  percentile,
  startService,
} from './support/processes.js';

/** A sweep must cost less than this many milliseconds (median). */
export const GOAL_MS = 20;
const KINDS = [EXPIRE_JOB, REMIND_JOB];
const DUE = 100;
const TAKE = 50;

/** One kind of sweep's figures, in milliseconds. */
export type SweepFigures = { median: number; p90: number; min: number; max: number };

/** One engine's figures. */
export type EngineSweepResult = {
  engine: 'sqlite' | 'postgres';
  pendingJobs: number;
  idle: SweepFigures;
  busy: SweepFigures;
  nextDueAt: SweepFigures;
  passed: boolean;
};

// Every in-process document gets an expiry and a first reminder, due within 30 days; DUE of
// them (half of each kind) are due already.
const JOB_COLUMNS =
  'id, kind, payload, run_at, status, attempts, max_attempts, lease_until, last_error, created_at, updated_at';

async function addJobs(engine: 'sqlite' | 'postgres', dataDir: string, url: string | null) {
  const now = Math.floor(Date.now() / 1000);
  if (engine === 'sqlite') {
    const db = new SQLite(path.join(dataDir, 'signet.db'));
    db.pragma('busy_timeout = 10000');
    db.exec(`update documents set status = 'in_process'`);
    for (const [prefix, kind] of [
      ['e', EXPIRE_JOB],
      ['r', REMIND_JOB],
    ]) {
      db.prepare(
        `insert into jobs (${JOB_COLUMNS})
         select '${prefix}-' || id, '${kind}', json_object('documentId', id, 'signeeId', id, 'n', 1),
           strftime('%Y-%m-%dT%H:%M:%fZ', ${now} + 3600 + (rowid * 7919) % 2592000, 'unixepoch'),
           'pending', 0, 10, null, null, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'
         from documents`,
      ).run();
      db.prepare(
        `update jobs set run_at = '2024-01-01T00:00:00.000Z'
         where id in (select id from jobs where kind = ? limit ${DUE / 2})`,
      ).run(kind);
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: url! });
  await client.connect();
  await client.query(`update documents set status = 'in_process'`);
  for (const [prefix, kind] of [
    ['e', EXPIRE_JOB],
    ['r', REMIND_JOB],
  ]) {
    await client.query(
      `insert into jobs (${JOB_COLUMNS})
       select '${prefix}-' || id, '${kind}', json_build_object('documentId', id, 'signeeId', id, 'n', 1)::text,
         to_char(to_timestamp(${now} + 3600 + (row_number() over () * 7919) % 2592000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'pending', 0, 10, null, null, '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'
       from documents`,
    );
    await client.query(
      `update jobs set run_at = '2024-01-01T00:00:00.000Z'
       where id in (select id from jobs where kind = $1 limit ${DUE / 2})`,
      [kind],
    );
  }
  await client.query('vacuum analyze documents');
  await client.query('vacuum analyze jobs');
  await client.end();
}

function figures(times: number[]): SweepFigures {
  return {
    median: median(times),
    p90: percentile(times, 90),
    min: Math.min(...times),
    max: Math.max(...times),
  };
}

async function runEngine(
  engine: 'sqlite' | 'postgres',
  settings: { documents: number; sweeps: number },
  log: (line: string) => void,
): Promise<EngineSweepResult> {
  const children = createChildren();
  const dataDir = mkdtempSync(path.join(tmpdir(), `signet-bench-sweep-${engine}-`));
  let postgres: BenchPostgres | null = null;
  let bulk: BulkTarget | null = null;
  try {
    if (engine === 'postgres') postgres = await startBenchPostgres();
    const databaseUrl = postgres?.url ?? null;
    const service = await startService(children, { dataDir, databaseUrl: postgres?.url });
    const { tenantId, userId } = await createKeyAndTenant(service.base);
    await children.stopAll();
    bulk = await openBulkTarget(engine, { dataDir, databaseUrl });
    const started = performance.now();
    for (let from = 0; from < settings.documents; from += 100_000) {
      await bulk.insert({
        tenantId,
        userId,
        from,
        to: Math.min(settings.documents, from + 100_000),
      });
    }
    await bulk.close();
    bulk = null;
    await addJobs(engine, dataDir, databaseUrl);
    log(
      `${engine}: ${settings.documents} documents in process, ${2 * settings.documents} jobs, in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    const db = openDatabase({ databaseUrl, dataDir });
    try {
      const claims = createClaims(db, 30_000);
      const due = await db.kysely
        .selectFrom('jobs')
        .select('id')
        .where('run_at', '<', '2025-01-01')
        .execute();
      const dueIds = due.map((j) => j.id);
      const putBack = () =>
        db.kysely
          .updateTable('jobs')
          .set({ status: 'pending', lease_until: null, attempts: 0 })
          .where('id', 'in', dueIds)
          .execute();
      const idle: number[] = [];
      const busy: number[] = [];
      const next: number[] = [];
      const time = async (into: number[], fn: () => Promise<unknown>) => {
        const t = performance.now();
        const out = await fn();
        into.push(performance.now() - t);
        return out;
      };
      for (let i = 0; i < settings.sweeps + 20; i++) {
        const warm = i < 20;
        const taken = (await time(busy, () => claims.claim(KINDS, TAKE))) as unknown[];
        if (taken.length !== TAKE) throw new Error(`took ${taken.length} jobs, expected ${TAKE}`);
        // Nothing due: every due job is running under its lease.
        await claims.claim(KINDS, TAKE);
        const none = (await time(idle, () => claims.claim(KINDS, TAKE))) as unknown[];
        if (none.length !== 0) throw new Error(`an idle sweep took ${none.length} jobs`);
        await time(next, () => claims.nextDueAt(KINDS));
        await putBack();
        if (warm) [idle, busy, next].forEach((a) => a.pop());
      }
      const result = {
        engine,
        pendingJobs: 2 * settings.documents,
        idle: figures(idle),
        busy: figures(busy),
        nextDueAt: figures(next),
        passed: false,
      };
      result.passed = result.idle.median < GOAL_MS && result.busy.median < GOAL_MS;
      log(
        `${engine}: idle sweep ${result.idle.median.toFixed(2)} ms, taking ${TAKE} ${result.busy.median.toFixed(2)} ms`,
      );
      return result;
    } finally {
      await db.close();
    }
  } finally {
    await bulk?.close();
    await children.stopAll();
    await postgres?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs every engine in turn; never leaves a child process or a database server behind. */
export async function runDueSweepBench(
  options: {
    engines?: Array<'sqlite' | 'postgres'>;
    documents?: number;
    sweeps?: number;
    log?: (line: string) => void;
  } = {},
) {
  const settings = { documents: options.documents ?? 1_000_000, sweeps: options.sweeps ?? 200 };
  const engines: EngineSweepResult[] = [];
  for (const engine of options.engines ?? ['sqlite', 'postgres']) {
    engines.push(await runEngine(engine, settings, options.log ?? (() => {})));
  }
  return {
    name: 'due-sweep',
    settings,
    engines,
    goalMs: GOAL_MS,
    passed: engines.every((e) => e.passed),
  };
}

/** The human-readable report of a result. */
export function formatDueSweepBench(result: Awaited<ReturnType<typeof runDueSweepBench>>) {
  const ms = (f: SweepFigures) =>
    `median ${f.median.toFixed(2)} ms (p90 ${f.p90.toFixed(2)}, min ${f.min.toFixed(2)}, max ${f.max.toFixed(2)})`;
  const lines = [
    `The job runner's sweep over ${KINDS.join(' and ')}, ${result.settings.sweeps} sweeps after 20 warm-up, ${result.settings.documents} documents in process`,
  ];
  for (const e of result.engines) {
    lines.push(
      `${e.engine}: ${e.pendingJobs} pending jobs`,
      `  claim, nothing due:        ${ms(e.idle)}`,
      `  claim, taking ${TAKE} of ${DUE} due: ${ms(e.busy)}`,
      `  nextDueAt:                 ${ms(e.nextDueAt)}`,
      `  goal < ${result.goalMs} ms per sweep: ${e.passed ? 'PASS' : 'FAIL'}`,
    );
  }
  return lines.join('\n');
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      engines: { type: 'string', default: 'sqlite,postgres' },
      documents: { type: 'string', default: '1000000' },
      sweeps: { type: 'string', default: '200' },
    },
  });
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  const result = await runDueSweepBench({
    engines: values.engines.split(',') as Array<'sqlite' | 'postgres'>,
    documents: Number(values.documents),
    sweeps: Number(values.sweeps),
    log: (line) => console.error(line),
  });
  console.log(formatDueSweepBench(result));
  process.exitCode = result.passed ? 0 : 1;
}
