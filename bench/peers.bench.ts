// Peer comparison for sealing (issue 30): `npx tsx bench/peers.bench.ts [--rounds 5]
// [--only text-10|illustrated-100|scan-300] [--plot docs/seal-vs-pages.svg]`.
//
// Seals the same generated inputs (a 10-page text PDF, a 100-page PDF with images and embedded
// fonts, a 300-page ~40 MiB scan) with the same sandbox certificate (Signet's, as a P12) in four
// ways (bench/support/peer-stacks.ts): (a) Signet's sealPdf, (b) pdf-lib + @signpdf, (c)
// Documenso's published pipeline as far as it runs here, (d) @libpdf/core load + sign, the floor.
//
// How: every seal runs in a child process of its own, so stacks share no heap and each has its
// own peak RSS (process.resourceUsage().maxRSS, which includes Node and tsx: the table shows the
// child's RSS before it loaded its stack beside it). The child loads its stack and seals the
// 10-page PDF to warm up (JIT, fonts, a cached signer): WARM_UP_SEALS seals, as many as the
// service's sealing thread makes before its first real seal (seal-worker.ts), or fewer if they
// take WARMUP_MS. Twenty were too few for Signet's seal, longer code than the floor's: after 20
// it took 5.5–8.2 ms in a process of its own, after 100 3.6–4.3 ms (docs/benchmarks-history.md,
// 2026-11-29). It then times TIMED_SEALS seals of the input in memory (reading and writing files are
// outside the time); the round's figure is their median, with the child's peak RSS. Rounds are interleaved, the order rotated each round (a b c d, b c d a, …), so that
// drift on a shared machine falls on every stack alike. Every output is checked with pdfsig
// (poppler-utils): "Signature is Valid", the whole file signed, and the input's pages plus the
// appended ones (none for the floor); a stack that fails is INVALID and cannot meet or beat a goal. Medians with min–max, the load
// average at the start and the end.
//
// Goals (issue 30): Signet ≥ 1.5x faster than (b) and (c) on all three inputs; Signet ≤ 1.5x
// the time of (d) at 10 pages.
//
// The peers' packages are bench/peers/package.json's, installed there by this benchmark when
// one is missing (bench/support/peer-modules.ts); a stack that still cannot load is NOT RUN,
// which `npm run bench -- --check` counts as a failure. A run of all three inputs also plots
// seal time against pages for every stack (bench/support/seal-plot.ts, docs/seal-vs-pages.svg).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { SealCertificate } from '../server/src/modules/sealing/seal-certificate.js';
import { WARM_UP_SEALS } from '../server/src/modules/sealing/seal-worker.js';
import {
  STACK_LABELS,
  STACK_NAMES,
  loadStack,
  sealedInput,
  unavailable,
  type StackName,
} from './support/peer-stacks.js';
import { machineName } from './support/bench-report.js';
import { installPeers } from './support/peer-modules.js';
import { ROOT, isMain, median } from './support/processes.js';
import { writeSealPlot } from './support/seal-plot.js';

export const INPUT_NAMES = ['text-10', 'illustrated-100', 'scan-300'] as const;
export type InputName = (typeof INPUT_NAMES)[number];

const SPEEDUP_GOAL = 1.5;
const FLOOR_GOAL = 1.5;
const CHILD_TIMEOUT_MS = 10 * 60_000;
const WARMUP_MS = 5_000;
const TIMED_SEALS: Record<InputName, number> = {
  'text-10': 9,
  'illustrated-100': 3,
  'scan-300': 1,
};

/** Median and range of a figure over the rounds. */
export type Spread = { median: number; min: number; max: number };

/** One stack on one input, over the rounds. */
export type StackResult = {
  stack: StackName;
  ms: Spread;
  rssMb: Spread;
  /** The child's RSS before it loaded its stack (Node, tsx). */
  startRssMb: number;
  outputBytes: number;
  /** Every round's output passed pdfsig. */
  valid: boolean;
  /** What pdfsig said, once per distinct verdict. */
  verdicts: string[];
};

/** One input: its size and every stack on it. */
export type InputResult = {
  input: InputName;
  pages: number;
  bytes: number;
  /** The stacks that ran (a stack that cannot run here is in PeersResult.notRun). */
  stacks: Partial<Record<StackName, StackResult>>;
};

/** A goal of the issue, against its figure. */
export type Goal = {
  figure: string;
  value: string;
  baseline: string;
  goal: string;
  met: boolean;
  /** False when the peer could not run here: the goal is then not met, nor missed. */
  measured: boolean;
};

export type PeersResult = {
  rounds: number;
  loadBefore: number[];
  loadAfter: number[];
  inputs: InputResult[];
  /** Stacks that could not run on this machine, and why. */
  notRun: Partial<Record<StackName, string>>;
  goals: Goal[];
};

type ChildReport = { ms: number; maxRssMb: number; startRssMb: number; bytes: number };

const spread = (values: number[]): Spread => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
});

async function makeInput(name: InputName): Promise<{ bytes: Uint8Array; pages: number }> {
  const samples = await import('./support/sample-pdfs.js');
  if (name === 'text-10') return { bytes: await samples.textPdf(10), pages: 10 };
  if (name === 'illustrated-100') return { bytes: await samples.illustratedPdf(100), pages: 100 };
  return { bytes: await samples.scannedPdf(300, 40 * 1024 * 1024), pages: 300 };
}

// The certificate as the children read it, without parsing the P12 (that would load
// @libpdf/core into every child, whichever stack it runs).
type CertificateFile = Omit<SealCertificate, 'p12' | 'certificateDer' | 'notAfter'> & {
  p12: string;
  certificateDer: string;
  notAfter: string;
};

function writeCertificate(file: string, c: SealCertificate): void {
  const json: CertificateFile = {
    ...c,
    p12: Buffer.from(c.p12).toString('base64'),
    certificateDer: Buffer.from(c.certificateDer).toString('base64'),
    notAfter: c.notAfter.toISOString(),
  };
  writeFileSync(file, JSON.stringify(json));
}

function readCertificate(file: string): SealCertificate {
  const json = JSON.parse(readFileSync(file, 'utf8')) as CertificateFile;
  return {
    ...json,
    p12: new Uint8Array(Buffer.from(json.p12, 'base64')),
    certificateDer: new Uint8Array(Buffer.from(json.certificateDer, 'base64')),
    notAfter: new Date(json.notAfter),
  };
}

// Child mode: warm up on `warm`, seal `input` once, write it to `out`, report on stdout.
async function child(args: string[]): Promise<void> {
  const [stack, input, warm, out, certificateFile, seals] = args;
  const startRssMb = process.memoryUsage.rss() / 1024 / 1024;
  const seal = await loadStack(stack as StackName, readCertificate(certificateFile));
  const warmInput = sealedInput(new Uint8Array(readFileSync(warm)));
  const warmStart = performance.now();
  for (let i = 0; i < WARM_UP_SEALS && performance.now() - warmStart < WARMUP_MS; i++) {
    await seal(warmInput);
  }
  const original = sealedInput(new Uint8Array(readFileSync(input)));
  const times: number[] = [];
  let sealed: Uint8Array = new Uint8Array();
  for (let i = 0; i < Number(seals); i++) {
    const started = performance.now();
    sealed = await seal(original);
    times.push(performance.now() - started);
  }
  writeFileSync(out, sealed);
  const report: ChildReport = {
    ms: median(times),
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    startRssMb,
    bytes: sealed.length,
  };
  process.stdout.write(JSON.stringify(report));
}

function runChild(args: string[]): ChildReport {
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: CHILD_TIMEOUT_MS,
  });
  if (result.status !== 0) {
    throw new Error(`${args[0]} failed (${result.status ?? result.signal}): ${result.stderr}`);
  }
  return JSON.parse(result.stdout) as ChildReport;
}

/** pdfsig's verdict on a sealed file: valid only if the signature holds over the whole file. */
export function checkSealed(file: string, minPages: number): { valid: boolean; verdict: string } {
  const sig = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  if (sig.error) throw new Error('pdfsig is missing: apt-get install -y poppler-utils');
  const text = `${sig.stdout}${sig.stderr}`;
  const type = /Signature Type: (\S+)/.exec(text)?.[1] ?? 'no signature';
  const pages = Number(
    /^Pages:\s+(\d+)/m.exec(spawnSync('pdfinfo', [file], { encoding: 'utf8' }).stdout)?.[1] ?? 0,
  );
  const problems = [
    ...(/Signature Validation: Signature is Valid\./.test(text) ? [] : ['signature not valid']),
    ...(/Total document signed/.test(text) ? [] : ['not the whole file signed']),
    ...(pages >= minPages ? [] : [`${pages} pages`]),
  ];
  return problems.length
    ? { valid: false, verdict: `INVALID (${problems.join(', ')}; ${type})` }
    : { valid: true, verdict: `valid ${type}` };
}

function compare(inputs: InputResult[], notRun: PeersResult['notRun']): Goal[] {
  const goals: Goal[] = [];
  const fmt = (s: StackResult) =>
    `${s.ms.median.toFixed(0)} ms${s.valid ? '' : ' (INVALID output)'}`;
  for (const r of inputs) {
    const signet = r.stacks.signet!;
    for (const peer of ['signpdf', 'documenso'] as const) {
      const other = r.stacks[peer];
      if (!other) {
        goals.push({
          figure: `${r.input}: Signet vs ${STACK_LABELS[peer]}`,
          value: `${signet.ms.median.toFixed(0)} ms`,
          baseline: `not run: ${notRun[peer]}`,
          goal: `≥ ${SPEEDUP_GOAL}x faster`,
          met: false,
          measured: false,
        });
        continue;
      }
      const speedup = other.ms.median / signet.ms.median;
      goals.push({
        figure: `${r.input}: Signet vs ${STACK_LABELS[peer]}`,
        value: `${signet.ms.median.toFixed(0)} ms, ${speedup.toFixed(2)}x faster`,
        baseline: fmt(other),
        goal: `≥ ${SPEEDUP_GOAL}x faster`,
        // An invalid peer output wins nothing; an invalid Signet output meets nothing.
        met: signet.valid && (!other.valid || speedup >= SPEEDUP_GOAL),
        measured: true,
      });
    }
    if (r.input === 'text-10') {
      const floor = r.stacks.libpdf!;
      const ratio = signet.ms.median / floor.ms.median;
      goals.push({
        figure: `${r.input}: Signet vs ${STACK_LABELS.libpdf}`,
        value: `${signet.ms.median.toFixed(0)} ms = ${ratio.toFixed(2)}x the floor`,
        baseline: fmt(floor),
        goal: `≤ ${FLOOR_GOAL}x`,
        met: signet.valid && ratio <= FLOOR_GOAL,
        measured: true,
      });
    }
  }
  return goals;
}

/** Runs the comparison; `log` gets progress lines. */
export async function runPeersBench(options: {
  log: (line: string) => void;
  rounds?: number;
  only?: InputName[];
}): Promise<PeersResult> {
  const { log } = options;
  const rounds = options.rounds ?? 5;
  const loadBefore = loadavg();
  const dir = mkdtempSync(path.join(tmpdir(), 'signet-peers-bench-'));
  try {
    const { loadOrCreateSealCertificate } =
      await import('../server/src/modules/sealing/seal-certificate.js');
    const certificateFile = path.join(dir, 'certificate.json');
    writeCertificate(certificateFile, await loadOrCreateSealCertificate({ dataDir: dir }));
    const notRun: PeersResult['notRun'] = {};
    const installFailure = installPeers(log);
    for (const stack of STACK_NAMES) {
      const why = unavailable(stack, installFailure);
      if (why) notRun[stack] = why;
      if (why) log(`${stack}: NOT RUN, ${why}`);
    }
    const stackNames = STACK_NAMES.filter((s) => !notRun[s]);
    const warm = path.join(dir, 'text-10.pdf');
    writeFileSync(warm, (await makeInput('text-10')).bytes);
    const inputs: InputResult[] = [];
    for (const name of options.only ?? INPUT_NAMES) {
      const { bytes, pages } = await makeInput(name);
      const file = path.join(dir, `${name}.pdf`);
      writeFileSync(file, bytes);
      log(`${name}: ${pages} pages, ${(bytes.length / 1024 / 1024).toFixed(1)} MiB`);
      const runs = new Map(
        stackNames.map((s) => [s, [] as Array<ChildReport & { verdict: string; valid: boolean }>]),
      );
      for (let round = 0; round < rounds; round++) {
        const order = stackNames.map((_, i) => stackNames[(i + round) % stackNames.length]);
        for (const stack of order) {
          const out = path.join(dir, `${name}.${stack}.pdf`);
          const seals = String(TIMED_SEALS[name]);
          const report = runChild([stack, file, warm, out, certificateFile, seals]);
          const check = checkSealed(out, pages + (stack === 'libpdf' ? 0 : 1));
          rmSync(out);
          runs.get(stack)!.push({ ...report, ...check });
          log(
            `  round ${round + 1}/${rounds} ${stack}: ${report.ms.toFixed(0)} ms, ` +
              `${report.maxRssMb.toFixed(0)} MB, ${check.verdict}`,
          );
        }
      }
      const stacks = Object.fromEntries(
        stackNames.map((s) => {
          const all = runs.get(s)!;
          const result: StackResult = {
            stack: s,
            ms: spread(all.map((r) => r.ms)),
            rssMb: spread(all.map((r) => r.maxRssMb)),
            startRssMb: median(all.map((r) => r.startRssMb)),
            outputBytes: median(all.map((r) => r.bytes)),
            valid: all.every((r) => r.valid),
            verdicts: [...new Set(all.map((r) => r.verdict))],
          };
          return [s, result];
        }),
      ) as InputResult['stacks'];
      inputs.push({ input: name, pages, bytes: bytes.length, stacks });
    }
    const goals = compare(inputs, notRun);
    return { rounds, loadBefore, loadAfter: loadavg(), inputs, notRun, goals };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the plot of a run says about it: when, where, and what a point is. */
export function peersPlotCaption(r: PeersResult, at: Date): string {
  const notRun = Object.keys(r.notRun).map((stack) => STACK_LABELS[stack as StackName]);
  return (
    `bench/peers.bench.ts, ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${machineName()}:\n` +
    `each point the median of ${r.rounds} rounds; bars from min to max` +
    (notRun.length ? `\nNOT RUN here: ${notRun.join('; ')}` : '')
  );
}

/** The report as plain text: one table per input, then the goals. */
export function formatPeersReport(r: PeersResult): string {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  const lines = [
    `Sealing peers: ${r.rounds} interleaved rounds, a fresh process per stack and round; times are ` +
      "the median over the rounds of each round's median (min–max of those), peak RSS likewise",
    `load average (1 / 5 / 15 min): ${load(r.loadBefore)} at the start, ${load(r.loadAfter)} at the end`,
  ];
  for (const input of r.inputs) {
    const signet = input.stacks.signet!.ms.median;
    lines.push(
      '',
      `${input.input}: ${input.pages} pages, ${(input.bytes / 1024 / 1024).toFixed(2)} MiB`,
      `  ${'stack'.padEnd(64)} ${'time ms'.padEnd(22)} ${'peak RSS MB (start)'.padEnd(24)} ${'output'.padEnd(10)} ${'÷ Signet'.padEnd(10)} pdfsig`,
    );
    for (const s of Object.values(input.stacks)) {
      const time = `${s.ms.median.toFixed(0)} (${s.ms.min.toFixed(0)}–${s.ms.max.toFixed(0)})`;
      const rss = `${s.rssMb.median.toFixed(0)} (${s.rssMb.min.toFixed(0)}–${s.rssMb.max.toFixed(0)}) (${s.startRssMb.toFixed(0)})`;
      const size = `${(s.outputBytes / 1024 / 1024).toFixed(2)} MiB`;
      lines.push(
        `  ${STACK_LABELS[s.stack].padEnd(64)} ${time.padEnd(22)} ${rss.padEnd(24)} ${size.padEnd(10)} ` +
          `${`${(s.ms.median / signet).toFixed(2)}x`.padEnd(10)} ${s.verdicts.join('; ')}`,
      );
    }
    for (const [stack, why] of Object.entries(r.notRun)) {
      lines.push(`  ${STACK_LABELS[stack as StackName].padEnd(64)} NOT RUN: ${why}`);
    }
  }
  lines.push('', 'Goals:');
  for (const g of r.goals) {
    lines.push(
      `  ${g.figure}: ${g.value} (peer: ${g.baseline}; goal ${g.goal}) ${g.measured ? (g.met ? 'MET' : 'MISSED') : 'NOT RUN'}`,
    );
  }
  return lines.join('\n');
}

if (process.argv[2] === '--child') {
  await child(process.argv.slice(3));
} else if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      only: { type: 'string' },
      plot: { type: 'string', default: path.join(ROOT, 'docs', 'seal-vs-pages.svg') },
    },
  });
  const only = values.only?.split(',').map((s) => s.trim()) as InputName[] | undefined;
  const unknown = only?.filter((n) => !INPUT_NAMES.includes(n)) ?? [];
  if (unknown.length)
    throw new Error(`unknown input ${unknown.join(', ')}: ${INPUT_NAMES.join(', ')}`);
  const result = await runPeersBench({
    log: (line) => process.stderr.write(`${line}\n`),
    rounds: Number(values.rounds),
    only,
  });
  process.stdout.write(`${formatPeersReport(result)}\n`);
  if (writeSealPlot(values.plot, result, peersPlotCaption(result, new Date()))) {
    process.stderr.write(`plot written to ${values.plot}\n`);
  }
}
