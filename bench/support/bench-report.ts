// The Markdown that `npm run bench` writes (docs/benchmarks.md): one table of every figure with
// its goal, what it was measured against (a baseline or the peers) and its spread, then the
// machine and how to reproduce. The history of each figure is docs/benchmarks-history.md,
// written by hand; a run never touches it.
import { existsSync, readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';

/** One figure of a benchmark: what was measured, against what, and whether the goal is met. */
export type Row = {
  figure: string;
  value: string;
  baseline: string;
  goal: string;
  met: boolean;
  /** False when a peer it compares against could not run: neither met nor missed. */
  ran?: boolean;
};

/** One benchmark's outcome: rows, or why it has none. */
export type Section = { name: string; issue: number; rows: Row[]; notes: string[] };

function cpuModel(): string {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  return /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown CPU';
}

/** The machine in a few words, for a table cell or a plot's caption: "AMD EPYC, 2 CPUs". */
export function machineName(): string {
  return `${cpuModel()}, ${cpus().length} CPUs`;
}

/** The machine as a Markdown list, with the load average around the run. */
export function describeMachine(loadBefore: number[], loadAfter: number[]): string[] {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  return [
    `- CPU: ${cpuModel()}, ${cpus().length} logical CPUs (nproc)`,
    `- Memory: ${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    `- Node.js ${process.version}, Linux ${release()}`,
    `- Load average (1 / 5 / 15 min): ${load(loadBefore)} at the start, ${load(loadAfter)} at the end`,
  ];
}

/** The verdict column: a row whose peer did not run is neither met nor missed. */
export function verdict(row: Row): string {
  if (row.ran === false) return 'NOT RUN';
  return row.met ? 'MET' : 'MISSED';
}

/** The column heads of the figures table; the hand-written docs/benchmarks.md uses the same. */
export const TABLE_HEAD = [
  '| Benchmark | Figure | Measured: median (spread) | Peers or baseline (same run) | Goal | | Date (UTC) | Machine |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
];

/** "How to reproduce", the same in every report. */
export const HOW_TO_REPRODUCE = [
  '## How to reproduce',
  '',
  'On a fresh checkout, `npm ci && npm run bench` runs every benchmark above in turn and rewrites ' +
    'this file and [seal-vs-pages.svg](seal-vs-pages.svg); `-- --out FILE` writes them elsewhere ' +
    '(the plot beside FILE).',
  '',
  '- `npm run bench -- --check` exits 1, and says why, when a figure misses its goal, a benchmark ' +
    'fails to run or a peer stack did not run.',
  '- `-- --only seal,peers` runs some of them (by the names of the first column), `-- --quick` ' +
    'all of them with fewer and shorter rounds and smaller tenants: a check that everything runs, ' +
    'not figures to quote. With either, give `--out` a file elsewhere, or this table is replaced ' +
    'by a partial one.',
  '- Each benchmark also runs alone: `npx tsx bench/<name>.bench.ts`, <name> as in the first ' +
    'column, its options in the comment at the top of the file; e.g. `npx tsx ' +
    'bench/peers.bench.ts --rounds 5` (which also redraws the plot) or `npx tsx ' +
    'bench/load.bench.ts --engine postgres`. `bench/seal-levels.bench.ts` and ' +
    '`bench/evidence.bench.ts` run only alone; `bench/ab.ts` compares a benchmark between two ' +
    'checkouts; `npx tsx bench/plot-recorded-seals.ts` redraws the plot from recorded figures.',
  '- The peers: `bench/peers/package.json` declares their packages at the versions measured ' +
    "(pdf-lib and @signpdf for (b); @cantoo/pdf-lib and @documenso/pdf-sign for Documenso's " +
    'pipeline, (c)), and the peers benchmark installs them into `bench/peers/node_modules` ' +
    'itself when one is missing, which needs the npm registry once.',
  '- The machine: Linux, Node.js 20.19 or later, `pdfsig` and `pdfinfo` (`apt-get install -y ' +
    "poppler-utils`) to check every sealed output, PostgreSQL's server binaries (`apt-get install " +
    '-y postgresql`; a throwaway cluster is started) or `TEST_DATABASE_URL` for the PostgreSQL ' +
    'figures, `openssl` for the seal levels. A benchmark that starts the service first builds ' +
    '`dist/` when it is missing or older than the sources, so it measures what `npm start` runs. ' +
    'On a shared machine req/s swing from run to run: across machines, compare the ratios to ' +
    'same-run baselines.',
  '',
];

/** The Markdown report of a run. */
export function formatReport(input: {
  sections: Section[];
  machine: string[];
  quick: boolean;
  startedAt: Date;
  minutes: number;
  /** Whether seal-vs-pages.svg sits beside the report. */
  plot: boolean;
}): string {
  const date = input.startedAt.toISOString().slice(0, 16).replace('T', ' ');
  const where = machineName();
  const lines = [
    '# Benchmarks',
    '',
    'How fast Signet is: every figure an issue set a goal for, from one run of ' +
      `\`npm run bench${input.quick ? ' -- --quick' : ''}\` (bench/run-all.ts) on ${date} UTC, ` +
      `${input.minutes.toFixed(0)} min${input.quick ? '; a `--quick` run, with fewer and shorter rounds: not figures to quote' : ''}. ` +
      'Each figure is a median with the spread of its rounds or runs, beside its goal and what it ' +
      'is measured against, a baseline or the peers, in the same run on the same machine. How each ' +
      'figure came to be, issue by issue, is in [benchmarks-history.md](benchmarks-history.md).',
    '',
    ...(input.plot
      ? ['![Seal time against page count for Signet and its peers](seal-vs-pages.svg)', '']
      : []),
    ...TABLE_HEAD,
  ];
  for (const s of input.sections) {
    for (const r of s.rows) {
      lines.push(
        `| ${s.name} | ${r.figure} | ${r.value} | ${r.baseline} | ${r.goal} | ${verdict(r)} | ${date} | ${where} |`,
      );
    }
  }
  lines.push(
    '',
    ...input.sections.flatMap((s) => s.notes.map((n) => `- ${s.name} (issue ${s.issue}): ${n}`)),
  );
  lines.push('', '## Machine', '', ...input.machine, '', ...HOW_TO_REPRODUCE);
  return lines.join('\n');
}
