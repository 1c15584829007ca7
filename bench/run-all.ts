// Every benchmark the issues name, then docs/benchmarks.md: `npm run bench [-- --quick]
// [--only tenant-get,load,…] [--out docs/benchmarks.md] [--check]`. Each benchmark runs its own
// rounds and reports medians; this file only runs them in turn and writes each figure beside its
// goal and its same-run baseline, with the load average around each benchmark. `--quick`
// shrinks rounds and durations (and the list benchmark's large tenant), for a check that
// everything still runs rather than for the figures. `--check` exits 1 when a figure misses its
// goal or a peer stack did not run, and lists them, so that a regression fails the command (a
// benchmark that cannot run always does). The peers benchmark also writes seal-vs-pages.svg
// beside the report when it seals all its inputs.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  describeMachine,
  formatReport,
  verdict,
  type Row,
  type Section,
} from './support/bench-report.js';
import { median, minMax, ROOT } from './support/processes.js';
import { WARM_UP_SEALS } from '../server/src/modules/sealing/seal-worker.js';

type Bench = {
  name: string;
  issue: number;
  file: string;
  /** `out` is where the report goes: a benchmark may write a file beside it. */
  run: (quick: boolean, out: string) => Promise<Row[]>;
};

const log = (line: string) => process.stderr.write(`${line}\n`);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const rate = (n: number) => `${n.toFixed(0)} req/s`;
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const cpu = (n: number | null) => (n === null ? 'CPU n/a' : `${n.toFixed(0)} µs CPU`);
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
/** The range of a figure over a benchmark's rounds, beside its median. */
const range = (runs: Array<{ requestsPerSecond: number }>) =>
  `${runs.length} rounds ${minMax(runs.map((r) => r.requestsPerSecond))}`;

// seal.bench.ts and webhooks.bench.ts run at import, so they run as children and their
// printed report is read back.
async function runScript(
  file: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    process.stderr.write(chunk);
  });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`${file} exited with ${code}`);
  return out;
}

function grab(text: string, re: RegExp, what: string): number[] {
  const m = re.exec(text);
  if (!m) throw new Error(`no ${what} in the report`);
  return m.slice(1).map(Number);
}

const BENCHES: Bench[] = [
  {
    name: 'tenant-get',
    issue: 2,
    file: 'tenant-get.bench.ts',
    run: async (quick) => {
      const { runTenantGetBench } = await import('./tenant-get.bench.js');
      const r = await runTenantGetBench({
        log,
        ...(quick ? { rounds: 3, durationSeconds: 5, warmupSeconds: 2 } : {}),
      });
      return [
        {
          figure: `GET /api/tenants/{tenantId}, ${r.settings.connections} connections (req/s; p99 ${ms(r.service.medianLatencyP99Ms)})`,
          value: `${rate(r.service.medianRequestsPerSecond)} (${range(r.service.runs)}) = ${pct(r.ratio)} of bare`,
          baseline: `bare Fastify GET: ${rate(r.bare.medianRequestsPerSecond)} (${range(r.bare.runs)})`,
          goal: '≥ 60% of bare',
          met: r.passed,
        },
      ];
    },
  },
  {
    name: 'quick-create',
    issue: 3,
    file: 'quick-create.bench.ts',
    run: async (quick) => {
      const { runQuickCreateBench } = await import('./quick-create.bench.js');
      const r = await runQuickCreateBench({
        log,
        ...(quick ? { rounds: 3, durationSeconds: 5, warmupSeconds: 2 } : {}),
      });
      return [
        {
          figure: `quick-create, 200 KB PDF + 2 signees, ${r.settings.connections} connections, SQLite (server CPU per request)`,
          value: `${rate(r.service.medianRequestsPerSecond)} (${range(r.service.runs)}) = ${pct(r.durableRatio)} of the fsyncing bare (${cpu(r.service.medianCpuMicrosPerRequest)})`,
          baseline:
            `bare Fastify multipart → disk, each file fsynced: ${rate(r.bareDurable.medianRequestsPerSecond)} (${range(r.bareDurable.runs)}; ${cpu(r.bareDurable.medianCpuMicrosPerRequest)}); ` +
            `informative, without the fsync: ${rate(r.bare.medianRequestsPerSecond)} (${cpu(r.bare.medianCpuMicrosPerRequest)}), service = ${pct(r.ratio)} of it`,
          goal: '≥ 90% of the fsyncing bare',
          met: r.passed,
        },
        {
          figure: 'the same with externalId and metadata parts (issue 48)',
          value: `${rate(r.withReferences.medianRequestsPerSecond)} (${range(r.withReferences.runs)}) = ${pct(r.referencesRatio)} of the fsyncing bare`,
          baseline: `without them: ${pct(r.durableRatio)}`,
          goal: 'within 3 points',
          met: r.referencesPassed,
        },
      ];
    },
  },
  {
    name: 'upload-memory',
    issue: 3,
    file: 'upload-memory.bench.ts',
    run: async (quick) => {
      const { runUploadMemoryBench } = await import('./upload-memory.bench.js');
      const r = await runUploadMemoryBench({ log, runs: quick ? 2 : 3 });
      return [
        {
          figure: `peak RSS increase of one ${mib(r.fileBytes)} upload (${r.runs.length} fresh servers)`,
          value: `${mib(r.medianIncrease)} (runs ${r.runs.map((run) => mib(run.increase)).join(', ')})`,
          baseline: `RSS before: ${mib(r.runs[0].rssBefore)}`,
          goal: '< 64 MiB',
          met: r.passed,
        },
      ];
    },
  },
  {
    name: 'list-latency',
    issue: 3,
    file: 'list-latency.bench.ts',
    run: async (quick) => {
      const { runListLatencyBench } = await import('./list-latency.bench.js');
      const r = await runListLatencyBench({
        log,
        ...(quick ? { rounds: 3, requestsPerRound: 100, large: 100_000 } : {}),
      });
      const at = quick ? ' (goal is at 1,000,000)' : '';
      return r.engines.flatMap((e) => {
        const size = `${e.large.documents.toLocaleString('en')} documents, ${e.engine}`;
        const small = `${e.small.documents.toLocaleString('en')} documents: ${ms(e.small.p50)}`;
        return [
          {
            figure: `GET /api/documents p50, ${size}`,
            value: `${ms(e.large.p50)} = ${e.ratio.toFixed(2)}x`,
            baseline: small,
            goal: `≤ 2x${at}`,
            met: e.ratio <= r.goal,
          },
          {
            figure: `&folderId= p50 (issue 27), ${size}`,
            value: `${ms(e.folder.p50)} = ${e.folderRatio.toFixed(2)}x`,
            baseline: small,
            goal: `≤ 2x${at}`,
            met: e.folderRatio <= r.goal,
          },
          ...(
            [
              ['one document', e.searchRare],
              ['one in ten', e.searchCommon],
            ] as const
          ).map(([matching, f]) => ({
            figure: `&q= matching ${matching} p50 (issue 27), ${size}`,
            value: ms(f.p50),
            baseline: `unfiltered: ${ms(e.large.p50)}`,
            goal: `< ${r.searchGoalMs} ms${at}`,
            met: f.p50 < r.searchGoalMs,
          })),
        ];
      });
    },
  },
  {
    name: 'seal',
    issue: 4,
    file: 'seal.bench.ts',
    run: async () => {
      const out = await runScript('bench/seal.bench.ts');
      const [a, aMin, aMax] = grab(
        out,
        /\(a\) sealPdf:\s+([\d.]+) ms \(runs ([\d.]+)–([\d.]+)\)/,
        'seal time',
      );
      const [b, bMin, bMax] = grab(
        out,
        /\(b\) @libpdf\/core load \+ PAdES sign:\s+([\d.]+) ms \(runs ([\d.]+)–([\d.]+)\)/,
        'sign time',
      );
      const [sandbox] = grab(out, /\(a'\) sealPdf in the sandbox[^:]*:\s+([\d.]+) ms/, 'sandbox');
      const [rss, took] = grab(out, /\(c\) sealPdf peak RSS:\s+([\d.]+) MB in ([\d.]+) ms/, 'RSS');
      const [baseRss] = grab(out, /sign alone peak RSS:\s+([\d.]+) MB/, 'baseline RSS');
      return [
        {
          figure: `sealing a 10-page PDF with a configured certificate (median of 60, alternating, after ${WARM_UP_SEALS} warm-up seals each)`,
          value: `${ms(a)} (${aMin}–${aMax}) = ${(a / b).toFixed(2)}x; in the sandbox, every page marked: ${ms(sandbox)}`,
          baseline: `@libpdf/core load + PAdES sign: ${ms(b)} (${bMin}–${bMax})`,
          goal: '≤ 1.5x',
          met: a / b <= 1.5,
        },
        {
          figure: `peak RSS sealing a 300-page, 40 MiB PDF (${(took / 1000).toFixed(1)} s)`,
          value: `${rss.toFixed(0)} MB`,
          baseline: `@libpdf/core sign alone: ${baseRss.toFixed(0)} MB`,
          goal: '< 600 MB',
          met: rss < 600,
        },
      ];
    },
  },
  {
    name: 'sign-to-signed',
    issue: 4,
    file: 'sign-to-signed.bench.ts',
    run: async (quick) => {
      const { runSignToSignedBench } = await import('./sign-to-signed.bench.js');
      const r = await runSignToSignedBench({ log, runs: quick ? 7 : 15 });
      return [
        {
          figure: `last signature → signed, 10-page PDF, SQLite (median of ${r.runs}, min–max ${minMax(r.latenciesMs, 0)}; after ${r.warmupMs.length} warm-up signatures: ${r.warmupMs.join(', ')} ms)`,
          value: `${r.medianMs} ms (p90 ${r.p90Ms} ms)`,
          baseline: '—',
          goal: 'median < 30 ms, p90 < 100 ms',
          met: r.met,
        },
      ];
    },
  },
  {
    name: 'webhooks',
    issue: 5,
    file: 'webhooks.bench.ts',
    run: async (quick) => {
      const quickEnv: Record<string, string> = quick ? { RUNS: '2', BACKLOG: '1000' } : {};
      const out = await runScript('bench/webhooks.bench.ts', quickEnv);
      // Issue 53: the backlog drained on PostgreSQL too (throughput only).
      const onPostgres = await runScript('bench/webhooks.bench.ts', {
        ...quickEnv,
        ENGINE: 'postgres',
        ONLY: 'a',
        REPORT: '1',
      });
      const drained = (text: string, on: string, goal: number) => {
        const [service] = grab(text, /service\s+([\d.]+) deliveries\/s/, 'service rate');
        const [bare] = grab(text, /bare loop\s+([\d.]+) posts\/s/, 'bare rate');
        const [ratio, ratioMin, ratioMax] = grab(
          text,
          /ratio\s+([\d.]+)% \(runs ([\d.]+)–([\d.]+)%\)/,
          'ratio',
        );
        const [serviceCpu, bareCpu] = grab(
          text,
          /CPU per delivery: service ([\d.]+) µs, bare loop ([\d.]+) µs/,
          'CPU per delivery',
        );
        return {
          figure: `deliveries/s draining a backlog, ${on} (median of ${runs})`,
          value: `${service.toFixed(0)}/s = ${ratio.toFixed(1)}% of bare (runs ${ratioMin}–${ratioMax}%); CPU per delivery ${serviceCpu.toFixed(0)} µs`,
          baseline: `bare loop, same client: ${bare.toFixed(0)}/s, ${bareCpu.toFixed(0)} µs`,
          goal: `≥ ${goal}% of bare`,
          met: ratio >= goal,
        };
      };
      const [p50, p99] = grab(out, /p50 ([\d.]+) ms, p99 ([\d.]+) ms \(goal p99/, 'latency');
      const late = (n: number) =>
        grab(
          out,
          new RegExp(`attempt ${n}: p50 ([-\\d.]+) ms, p99 ([-\\d.]+) ms, max ([-\\d.]+) ms`),
          `attempt ${n}`,
        );
      const runs = quick ? 2 : 5;
      return [
        drained(out, 'SQLite', 80),
        drained(onPostgres, 'PostgreSQL', 60),
        {
          figure: 'first attempt after the commit, p99',
          value: `${ms(p99)} (p50 ${ms(p50)})`,
          baseline: '—',
          goal: '≤ 50 ms',
          met: p99 <= 50,
        },
        ...[2, 3].map((n) => {
          const [l50, , max] = late(n);
          return {
            figure: `attempt ${n} lateness vs its schedule, worst`,
            value: `${ms(max)} (p50 ${ms(l50)})`,
            baseline: '—',
            goal: '≤ 100 ms',
            met: max <= 100,
          };
        }),
      ];
    },
  },
  {
    name: 'fields',
    issue: 24,
    file: 'fields.bench.ts',
    run: async (quick) => {
      const out = await runScript(
        'bench/fields.bench.ts',
        {},
        quick ? ['--rounds', '2', '--duration', '5', '--warmup', '2'] : [],
      );
      const [none, noneMin, noneMax] = grab(
        out,
        /no fields: median (\d+) req\/s \(runs (\d+)–(\d+)\)/,
        'no-fields rate',
      );
      const [twenty, twentyMin, twentyMax] = grab(
        out,
        /20 fields: median (\d+) req\/s \(runs (\d+)–(\d+)\)/,
        '20-fields rate',
      );
      const [qcRatio] = grab(out, /ratio: ([\d.]+)x \(goal >= 0\.9x\)/, 'quick-create ratio');
      const [rounds] = grab(out, /SQLite; (\d+) rounds x/, 'rounds');
      const [sealNone, sealNoneMin, sealNoneMax] = grab(
        out,
        /no fields: ([\d.]+) ms \(runs ([\d.]+)–([\d.]+)\)/,
        'seal without fields',
      );
      const [sealForty, sealFortyMin, sealFortyMax] = grab(
        out,
        /40 fields: ([\d.]+) ms \(runs ([\d.]+)–([\d.]+)\)/,
        'seal with fields',
      );
      const [sealRatio] = grab(out, /ratio: ([\d.]+)x \(goal <= 1\.3x\)/, 'seal ratio');
      return [
        {
          figure: `quick-create, 200 KB PDF + 2 signees, with 20 fields, SQLite (median req/s of ${rounds} rounds)`,
          value: `${rate(twenty)} (${twentyMin}–${twentyMax}) = ${qcRatio.toFixed(2)}x`,
          baseline: `the same without fields: ${rate(none)} (${noneMin}–${noneMax})`,
          goal: '≥ 0.90x',
          met: qcRatio >= 0.9,
        },
        {
          figure: 'sealing a 10-page PDF with 40 filled fields (median of 60)',
          value: `${ms(sealForty)} (${sealFortyMin}–${sealFortyMax}) = ${sealRatio.toFixed(2)}x`,
          baseline: `the same without fields: ${ms(sealNone)} (${sealNoneMin}–${sealNoneMax})`,
          goal: '≤ 1.3x',
          met: sealRatio <= 1.3,
        },
      ];
    },
  },
  {
    name: 'text-tags',
    issue: 24,
    file: 'text-tags.bench.ts',
    run: async (quick) => {
      const out = await runScript('bench/text-tags.bench.ts', {}, quick ? ['--runs', '5'] : []);
      const [p50] = grab(out, /p50 (\d+) ms/, 'p50');
      const [delay] = grab(out, /max delay ([\d.]+) ms/, 'event-loop delay');
      return [
        {
          figure: 'text-tag scan of a 100-page PDF with 200 tags, on the bounded thread',
          value: `p50 ${ms(p50)}`,
          baseline: `event loop meanwhile: max delay ${ms(delay)}`,
          goal: '< 500 ms',
          met: p50 < 500,
        },
      ];
    },
  },
  {
    name: 'mail-attachment',
    issue: 26,
    file: 'mail-attachment.bench.ts',
    run: async (quick) => {
      const { runMailAttachmentBench } = await import('./mail-attachment.bench.js');
      const r = await runMailAttachmentBench({ log, runs: quick ? 1 : 3 });
      return [
        {
          figure: `peak RSS increase while e-mailing a ${mib(r.runs[0].sealedBytes)} signed copy (${r.runs.length} fresh servers)`,
          value: `${mib(r.medianIncrease)} (runs ${r.runs.map((run) => mib(run.increase)).join(', ')})`,
          baseline: `RSS before: ${mib(r.runs[0].rssBefore)}`,
          goal: '< 32 MiB',
          met: r.passed,
        },
      ];
    },
  },
  {
    name: 'real-pdfs',
    issue: 25,
    file: 'real-pdfs.bench.ts',
    run: async (quick) => {
      const out = await runScript('bench/real-pdfs.bench.ts', {}, quick ? ['--runs', '3'] : []);
      const [repair] = grab(out, /repair median (\d+) ms/, 'repair median');
      const [delay] = grab(out, /max delay ([\d.]+) ms/, 'event-loop delay');
      const [latin] = grab(out, /Latin names: median (\d+) ms/, 'Latin seal median');
      const [cjk] = grab(out, /CJK names: +median (\d+) ms/, 'CJK seal median');
      const [growth] = grab(out, /CJK size growth ([\d.]+) KiB/, 'CJK size growth');
      return [
        {
          figure: 'opening a damaged 10 MB PDF (rebuilt cross-references) on the bounded thread',
          value: ms(repair),
          baseline: `event loop meanwhile: max delay ${ms(delay)}`,
          goal: '< 1 s',
          met: repair < 1000,
        },
        {
          figure: 'sealing with CJK names, against the same seal with Latin names',
          value: ms(cjk),
          baseline: `${ms(latin)} (ratio ${(cjk / latin).toFixed(2)})`,
          goal: '≤ 1.5x',
          met: cjk / latin <= 1.5,
        },
        {
          figure: 'sealed file growth for CJK names (fonts subset)',
          value: `${growth.toFixed(1)} KiB`,
          baseline: 'the Latin seal',
          goal: '< 300 KB',
          met: growth < 300,
        },
      ];
    },
  },
  {
    name: 'from-template',
    issue: 47,
    file: 'from-template.bench.ts',
    run: async (quick) => {
      const { runFromTemplateBench } = await import('./from-template.bench.js');
      const r = await runFromTemplateBench({
        log,
        ...(quick ? { rounds: 3, durationSeconds: 5, warmupSeconds: 2 } : {}),
      });
      return [
        {
          figure: `create-from-template (2 roles, no send), same 200 KB PDF, ${r.settings.connections} connections, SQLite (server CPU per request)`,
          value: `${rate(r.fromTemplate.medianRequestsPerSecond)} (${range(r.fromTemplate.runs)}) = ${r.ratio.toFixed(2)}x quick-create (${cpu(r.fromTemplate.medianCpuMicrosPerRequest)})`,
          baseline: `quick-create, same run: ${rate(r.quickCreate.medianRequestsPerSecond)} (${range(r.quickCreate.runs)}; ${cpu(r.quickCreate.medianCpuMicrosPerRequest)})`,
          goal: '≥ 2x quick-create',
          met: r.passed,
        },
      ];
    },
  },
  {
    name: 'startup',
    issue: 28,
    file: 'startup.bench.ts',
    run: async (quick) => {
      const { runStartupBench, formatSpread } = await import('./startup.bench.js');
      const r = await runStartupBench({ log, ...(quick ? { runs: 3, idleSeconds: 45 } : {}) });
      const n = r.built.runs.length;
      return [
        {
          figure: `npm start of the built tree (production dependencies only) → /readyz, SQLite (median of ${n}, min-max)`,
          value: formatSpread(r.built.readyMs, 'ms'),
          baseline: `the sources through tsx: ${formatSpread(r.sources.readyMs, 'ms')}`,
          goal: `< ${r.readyGoalMs} ms`,
          met: r.built.readyMs.median < r.readyGoalMs,
        },
        {
          figure: `its RSS once idle, ${r.idleSeconds} s after /readyz (3 s after: ${formatSpread(r.built.rssSoon, 'MiB')})`,
          value: formatSpread(r.built.rssIdle, 'MiB'),
          baseline: `the sources through tsx: ${formatSpread(r.sources.rssIdle, 'MiB')}`,
          goal: '< 120 MiB',
          met: r.built.rssIdle.median < r.rssGoalBytes,
        },
      ];
    },
  },
  {
    name: 'peers',
    issue: 30,
    file: 'peers.bench.ts',
    run: async (quick, out) => {
      const { runPeersBench, peersPlotCaption } = await import('./peers.bench.js');
      const { writeSealPlot } = await import('./support/seal-plot.js');
      const r = await runPeersBench({ log, rounds: quick ? 2 : 5 });
      const plot = path.join(path.dirname(out), 'seal-vs-pages.svg');
      if (writeSealPlot(plot, r, peersPlotCaption(r, new Date()))) log(`plot written to ${plot}`);
      return r.goals.map((g) => ({
        figure: `${g.figure} (median of ${r.rounds} rounds)`,
        value: g.measured ? g.value : `Signet: ${g.value}`,
        baseline: g.baseline,
        goal: g.goal,
        met: g.met,
        ran: g.measured,
      }));
    },
  },
  {
    name: 'load',
    issue: 7,
    file: 'load.bench.ts',
    run: async (quick) => {
      const { runLoadBench } = await import('./load.bench.js');
      type Run = Awaited<ReturnType<typeof runLoadBench>>;
      const runs: Record<'sqlite' | 'postgres', Run[]> = { sqlite: [], postgres: [] };
      // Issue 30: the same load on PostgreSQL as on SQLite; issue 53: in rounds that alternate
      // the two, so a change in the shared machine's load weighs on both alike.
      const rounds = quick ? 1 : 5;
      for (let round = 0; round < rounds; round++) {
        for (const engine of ['sqlite', 'postgres'] as const) {
          runs[engine].push(await runLoadBench({ log, engine, durationSeconds: quick ? 20 : 30 }));
        }
      }
      // Issue 53: two service processes on one PostgreSQL database (the scale-out layout).
      const two = await runLoadBench({
        log,
        engine: 'postgres',
        processes: 2,
        durationSeconds: quick ? 20 : 30,
      });
      const spread = (values: number[], digits: number) =>
        `${median(values).toFixed(digits)} (${minMax(values, digits)})`;
      const rows = [];
      for (const engine of ['sqlite', 'postgres'] as const) {
        const all = runs[engine];
        const on = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
        const total = (f: (r: Run) => number) => all.reduce((n, r) => n + f(r), 0);
        const d = all[0].settings.durationSeconds;
        rows.push(
          {
            figure: `${all[0].settings.clients} clients x ${d} s, ${on} (rounds: ${all.length}): 5xx and network errors`,
            value: String(total((r) => r.serverErrors + r.networkErrors)),
            baseline: `${spread(
              all.map((r) => r.requestsPerSecond),
              0,
            )} req/s`,
            goal: '0',
            met: total((r) => r.serverErrors + r.networkErrors) === 0,
          },
          {
            // Every request of the load is valid: a 4xx means something was refused that should
            // have been served, and its latency is not the work's.
            figure: `${on}: requests refused with a 4xx`,
            value: String(total((r) => r.endpoints.reduce((n, e) => n + e.otherErrors, 0))),
            baseline: '—',
            goal: '0',
            met: all.every((r) => r.endpoints.every((e) => e.otherErrors === 0)),
          },
          {
            figure: `${on}: documents created and not readable afterwards`,
            value: String(total((r) => r.lostDocuments)),
            baseline: `${total((r) => r.documentsCreated)} created`,
            goal: '0',
            met: total((r) => r.lostDocuments) === 0,
          },
          {
            figure: `${on}: events neither delivered nor failed after 3 attempts`,
            value: String(total((r) => r.lostEvents)),
            baseline: `${total((r) => r.events)} events, ${total((r) => r.deliveries)} deliveries`,
            goal: '0',
            met: total((r) => r.lostEvents) === 0,
          },
          ...all[0].endpoints.map((e, i) => {
            const p99 = all.map((r) => r.endpoints[i].p99Ms);
            return {
              figure: `${on}: ${e.endpoint}, p99 (p50)`,
              value: `${spread(p99, 1)} ms (${spread(
                all.map((r) => r.endpoints[i].p50Ms),
                1,
              )} ms)`,
              baseline: '—',
              // Issue 53 sets PostgreSQL's; SQLite's are reported.
              goal: engine === 'postgres' ? '< 500 ms' : 'reported',
              met:
                all.every((r) => r.endpoints[i].serverErrors === 0) &&
                (engine === 'sqlite' || median(p99) < 500),
            };
          }),
        );
      }
      const ratios = runs.postgres.map(
        (r, i) => r.requestsPerSecond / runs.sqlite[i].requestsPerSecond,
      );
      const cpu = (r: Run) =>
        r.cpu
          ? `; CPU: services ${r.cpu.services.toFixed(2)}, PostgreSQL ${r.cpu.postgres?.toFixed(2)}, machine ${r.cpu.machine.toFixed(2)} of ${r.cpu.cores} cores`
          : '';
      rows.push(
        {
          figure: `PostgreSQL req/s ÷ SQLite's, rounds alternating (${ratios.length})`,
          value: spread(ratios, 2),
          baseline: `SQLite ${spread(
            runs.sqlite.map((r) => r.requestsPerSecond),
            0,
          )} req/s${cpu(runs.postgres[0])}`,
          goal: '≥ 0.60 (issue 53)',
          met: median(ratios) >= 0.6,
        },
        {
          figure: 'PostgreSQL, two service processes on one database: req/s, p99 per route',
          value: `${rate(two.requestsPerSecond)}; ${two.endpoints
            .map(
              (e) =>
                `${e.endpoint.split(' ')[0]} ${e.endpoint.split(' ')[1].replace('/api/documents', '…')} ${ms(e.p99Ms)}`,
            )
            .join(', ')}`,
          baseline: `one process: ${rate(median(runs.postgres.map((r) => r.requestsPerSecond)))}${cpu(two)}`,
          goal: 'reported; 0 5xx, nothing lost',
          met: two.passed,
        },
      );
      return rows;
    },
  },
  {
    name: 'bulk-send',
    issue: 47,
    file: 'bulk-send.bench.ts',
    run: async (quick) => {
      const { runBulkSendBench, BULK_SEND_GOALS: goal } = await import('./bulk-send.bench.js');
      const r = await runBulkSendBench({ log, rows: quick ? 2000 : 10_000 });
      return r.runs.flatMap((run) => {
        const on = run.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
        return [
          {
            figure: `${run.rows}-row bulk send, one role, ${on}: upload to completed (every document in_process, every invitation queued)`,
            value: `${run.seconds.toFixed(1)} s`,
            baseline: `${run.documentsInProcess} documents in_process, ${run.invitationsQueued} invitations queued; intake ${ms(run.intakeMs)}`,
            goal: `< ${goal.seconds[run.engine]} s`,
            met:
              run.seconds < goal.seconds[run.engine] &&
              run.documentsInProcess === run.rows &&
              run.invitationsQueued === run.rows,
          },
          {
            figure: `${on}: /healthz every 50 ms meanwhile, p99`,
            value: `${ms(run.healthz.p99)} (p50 ${ms(run.healthz.p50)}, max ${ms(run.healthz.max)}, ${run.healthz.samples} samples)`,
            baseline: '—',
            goal: `< ${goal.healthzP99Ms} ms`,
            met: run.healthz.p99 < goal.healthzP99Ms,
          },
          {
            figure: `${on}: the service's RSS growth`,
            value: mib(run.rssGrowth),
            baseline: `RSS before: ${mib(run.rssBefore)}`,
            goal: '< 150 MB',
            met: run.rssGrowth < goal.rssGrowthBytes,
          },
          {
            figure: `${on}: storage growth (du of DATA_DIR/files)`,
            value: `${(run.storageGrowth / 1024).toFixed(0)} KiB`,
            baseline: '—',
            goal: '< 1 MiB',
            met: run.storageGrowth < goal.storageGrowthBytes,
          },
        ];
      });
    },
  },
  {
    name: 'due-sweep',
    issue: 48,
    file: 'due-sweep.bench.ts',
    run: async (quick) => {
      const { runDueSweepBench } = await import('./due-sweep.bench.js');
      const r = await runDueSweepBench({
        log,
        ...(quick ? { documents: 100_000, sweeps: 50 } : {}),
      });
      const at = quick ? ' (goal is at 1,000,000)' : '';
      return r.engines.flatMap((e) => [
        {
          figure: `job runner sweep for due reminders and expiries, ${r.settings.documents.toLocaleString('en')} documents in process, ${e.engine}`,
          value: `idle ${ms(e.idle.median)}, taking 50 ${ms(e.busy.median)}`,
          baseline: `${e.pendingJobs.toLocaleString('en')} pending jobs`,
          goal: `< ${r.goalMs} ms${at}`,
          met: e.passed,
        },
      ]);
    },
  },
  {
    name: 'verification',
    issue: 49,
    file: 'verification.bench.ts',
    run: async (quick) => {
      const { runVerificationBench } = await import('./verification.bench.js');
      const r = await runVerificationBench({ log, samples: quick ? 100 : 300 });
      return r.figures.map((f) => ({
        figure: `${f.what}, one at a time, SQLite (${f.samples} requests)`,
        value: `p99 ${f.p99Ms} ms (p50 ${f.p50Ms} ms)`,
        baseline: '—',
        goal: /e-mailed|token/.test(f.what) ? `< ${r.goalMs} ms p99` : '—',
        met: /e-mailed|token/.test(f.what) ? f.p99Ms < r.goalMs : true,
      }));
    },
  },
];

async function main() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      quick: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
      out: { type: 'string', default: path.join(ROOT, 'docs', 'benchmarks.md') },
    },
  });
  const only = values.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((n) => !BENCHES.some((b) => b.name === n)) ?? [];
  if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')}`);
  const startedAt = new Date();
  const loadBefore = loadavg();
  const sections: Section[] = [];
  for (const bench of BENCHES.filter((b) => !only || only.includes(b.name))) {
    const section: Section = { name: bench.name, issue: bench.issue, rows: [], notes: [] };
    sections.push(section);
    if (!existsSync(path.join(ROOT, 'bench', bench.file))) {
      log(`== ${bench.name}: bench/${bench.file} is missing, skipped`);
      section.notes.push(`skipped: bench/${bench.file} is missing`);
      continue;
    }
    log(`== ${bench.name}`);
    const t = performance.now();
    const loadAtStart = loadavg()[0];
    try {
      section.rows = await bench.run(values.quick, values.out);
      section.notes.push(
        `ran in ${((performance.now() - t) / 1000).toFixed(0)} s, load average (1 min) ` +
          `${loadAtStart.toFixed(2)} at its start, ${loadavg()[0].toFixed(2)} at its end`,
      );
    } catch (err) {
      log(
        `${bench.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
      section.notes.push(`FAILED to run: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const report = formatReport({
    sections,
    machine: describeMachine(loadBefore, loadavg()),
    quick: values.quick,
    startedAt,
    minutes: (Date.now() - startedAt.getTime()) / 60_000,
    plot: existsSync(path.join(path.dirname(values.out), 'seal-vs-pages.svg')),
  });
  writeFileSync(values.out, report);
  process.stdout.write(report);
  log(`written to ${values.out}`);
  // A missed goal is a figure to read, not a broken run, unless --check asks for the goals to
  // hold; a benchmark that could not run is always a broken run.
  if (sections.some((s) => s.notes.some((n) => n.startsWith('FAILED')))) process.exitCode = 1;
  // A figure against a peer that did not run is no figure: --check fails on it as on a miss.
  const failing = sections.flatMap((s) =>
    s.rows.filter((r) => !r.met || r.ran === false).map((r) => ({ s, r })),
  );
  if (values.check && failing.length > 0) {
    log(`--check: ${failing.length} figure(s) missed their goal or did not run:`);
    for (const { s, r } of failing) {
      log(`  ${s.name}: ${r.figure}: ${verdict(r)}, ${r.value}; ${r.baseline} (goal ${r.goal})`);
    }
    process.exitCode = 1;
  }
}

process.once('SIGINT', () => process.exit(130)); // the benchmarks' exit hooks kill their children
process.once('SIGTERM', () => process.exit(143));
await main();
