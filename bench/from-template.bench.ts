// Create-from-template against quick-create: `npx tsx bench/from-template.bench.ts [--rounds 5]
// [--duration 10] [--warmup 3] [--connections 10] [--engine sqlite|postgres]`. Goal (issue 47):
// POST /api/templates/{id}/documents (two roles, no send) reaches at least 2x the requests per
// second of POST /api/documents/quick-create with the same 200 KB PDF and two signees, both on
// the same service in the same run. Each round measures both, in rotating order; figures are
// medians with their range, and the service's CPU time per request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makePdf } from '../test/helpers/pdf.js';
import {
  BOUNDARY,
  buildQuickCreateBody,
  summarize,
  type Run,
  type TargetFigures,
} from './quick-create.bench.js';
import { startBenchPostgres, type BenchPostgres } from './support/postgres.js';
import {
  createChildren,
  createKeyAndTenant,
  isMain,
  minMax,
  startService,
  withCpuPerRequest,
} from './support/processes.js';
import { runAutocannon } from './support/autocannon.js';
import { emptyFiles, markDeletion, settleAfterDeletion } from './support/scratch-files.js';

/** How the benchmark runs; every field has a default. */
export type FromTemplateBenchOptions = {
  rounds?: number;
  durationSeconds?: number;
  warmupSeconds?: number;
  connections?: number;
  engine?: 'sqlite' | 'postgres';
  log?: (line: string) => void;
};

/** What the benchmark measured. */
export type FromTemplateBenchResult = {
  settings: Required<Omit<FromTemplateBenchOptions, 'log'>> & { pdfBytes: number };
  quickCreate: TargetFigures;
  fromTemplate: TargetFigures;
  ratio: number;
  goal: number;
  passed: boolean;
};

const GOAL = 2;
const PDF_BYTES = 200 * 1000;

/** Starts the service, measures both routes in alternating rounds, stops it. */
export async function runFromTemplateBench(
  options: FromTemplateBenchOptions = {},
): Promise<FromTemplateBenchResult> {
  const rounds = options.rounds ?? 5;
  const durationSeconds = options.durationSeconds ?? 10;
  const warmupSeconds = options.warmupSeconds ?? 3;
  const connections = options.connections ?? 10;
  const engine = options.engine ?? 'sqlite';
  const log = options.log ?? (() => {});
  const children = createChildren();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-bench-ft-'));
  let postgres: BenchPostgres | null = null;
  try {
    await settleAfterDeletion(log);
    if (engine === 'postgres') postgres = await startBenchPostgres({ durable: true });
    const service = await startService(children, { dataDir, databaseUrl: postgres?.url });
    const { apiKey, tenantId } = await createKeyAndTenant(service.base);
    const pdf = makePdf({ pages: 2, padBytes: PDF_BYTES - makePdf({ pages: 2 }).length - 40 });
    const auth = { 'x-api-key': apiKey };

    // The same PDF as a template with two roles and a signature field for each.
    const form = new FormData();
    form.append('tenantId', tenantId);
    form.append(
      'template',
      JSON.stringify({ name: 'Bench', roles: [{ name: 'Alice' }, { name: 'Bob' }] }),
    );
    form.append(
      'fields',
      JSON.stringify(
        [0, 1].map((role) => ({
          role,
          type: 'signature',
          page: 1,
          x: 72,
          y: 100 + role * 60,
          width: 160,
          height: 40,
        })),
      ),
    );
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'c.pdf');
    const made = await fetch(`${service.base}/api/templates`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    if (made.status !== 201) throw new Error(`template: ${made.status} ${await made.text()}`);
    const templateId = ((await made.json()) as { template: { id: string } }).template.id;

    const quickCreateBody = buildQuickCreateBody(tenantId, pdf);
    const fromTemplateBody = Buffer.from(
      JSON.stringify({
        signees: [
          { role: 0, email: 'alice@example.com', name: 'Alice Example' },
          { role: 1, email: 'bob@example.com', name: 'Bob Example' },
        ],
      }),
    );
    const targets = {
      'quick-create': {
        url: `${service.base}/api/documents/quick-create`,
        body: quickCreateBody,
        headers: { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      },
      'from-template': {
        url: `${service.base}/api/templates/${templateId}/documents`,
        body: fromTemplateBody,
        headers: { ...auth, 'content-type': 'application/json' },
      },
    };
    type Name = keyof typeof targets;
    const names = Object.keys(targets) as Name[];
    const runs = new Map<Name, Run[]>(names.map((n) => [n, []]));
    const measure = async (name: Name, duration: number) => {
      const t = targets[name];
      const run = await withCpuPerRequest(service.pid, () =>
        runAutocannon({
          url: t.url,
          method: 'POST',
          body: t.body,
          headers: t.headers,
          connections,
          duration,
        }),
      );
      if (run.non2xx + run.errors > 0) {
        throw new Error(`${name}: ${run.non2xx} non-2xx and ${run.errors} errors`);
      }
      emptyFiles(path.join(dataDir, 'files', 'documents'), '.pdf');
      return run;
    };
    log(`warming up both routes for ${warmupSeconds} s each`);
    for (const name of names) await measure(name, warmupSeconds);
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? names : [...names].reverse();
      for (const name of order) runs.get(name)!.push(await measure(name, durationSeconds));
      const last = (n: Name) => runs.get(n)!.at(-1)!.requestsPerSecond;
      log(
        `round ${round}/${rounds}: quick-create ${last('quick-create').toFixed(0)} req/s, ` +
          `from-template ${last('from-template').toFixed(0)} req/s ` +
          `(${(last('from-template') / last('quick-create')).toFixed(2)}x)`,
      );
    }
    const quickCreate = summarize(runs.get('quick-create')!);
    const fromTemplate = summarize(runs.get('from-template')!);
    const ratio = fromTemplate.medianRequestsPerSecond / quickCreate.medianRequestsPerSecond;
    return {
      settings: {
        rounds,
        durationSeconds,
        warmupSeconds,
        connections,
        engine,
        pdfBytes: pdf.length,
      },
      quickCreate,
      fromTemplate,
      ratio,
      goal: GOAL,
      passed: ratio >= GOAL,
    };
  } finally {
    await children.stopAll();
    await postgres?.close();
    rmSync(dataDir, { recursive: true, force: true });
    markDeletion();
  }
}

/** The human-readable report of a result. */
export function formatFromTemplateBench(r: FromTemplateBenchResult): string {
  const s = r.settings;
  const row = (label: string, f: TargetFigures) =>
    `  ${label.padEnd(44)} median ${f.medianRequestsPerSecond.toFixed(0)} req/s (${s.rounds} rounds ${minMax(f.runs.map((x) => x.requestsPerSecond))})` +
    (f.medianCpuMicrosPerRequest === null
      ? ''
      : `, server CPU ${f.medianCpuMicrosPerRequest.toFixed(0)} µs/request`);
  return [
    `create-from-template vs quick-create, ${(s.pdfBytes / 1000).toFixed(0)} KB PDF, 2 signees; ` +
      `autocannon ${s.connections} connections, ${s.rounds} rounds x ${s.durationSeconds} s per route ` +
      `(alternating order); ${s.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL (fsync on)'} + local files`,
    row('POST /api/documents/quick-create', r.quickCreate),
    row('POST /api/templates/{id}/documents', r.fromTemplate),
    `ratio of medians: ${r.ratio.toFixed(2)}x (goal >= ${r.goal}x): ${r.passed ? 'PASS' : 'FAIL'}`,
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '10' },
      engine: { type: 'string', default: 'sqlite' },
    },
  });
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  const result = await runFromTemplateBench({
    rounds: Number(values.rounds),
    durationSeconds: Number(values.duration),
    warmupSeconds: Number(values.warmup),
    connections: Number(values.connections),
    engine: values.engine === 'postgres' ? 'postgres' : 'sqlite',
    log: (line) => console.error(line),
  });
  console.log(formatFromTemplateBench(result));
  process.exit(result.passed ? 0 : 1);
}
