// Evidence file benchmark (issue 46): `npx tsx bench/evidence.bench.ts [--before DIR] [--runs N]`
//  (a) the size of evidence.json for a seal with 20 audit entries, 2 signees and 2 fields, as
//      embedded (compressed) and decoded (goal < 50 KB);
//  (b) with --before DIR (an export of a commit without the evidence file, its node_modules
//      beside it: `git archive <commit> server | tar -x -C DIR; ln -s $PWD/node_modules DIR`):
//      sealPdf on a 10-page PDF from DIR and from this checkout, alternating, warm, as medians
//      with their spread, and the time added (goal < 10%).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findEvidence } from '../sdk/src/pdf-evidence.js';
import { loadOrCreateSealCertificate } from '../server/src/modules/sealing/seal-certificate.js';
import { sealPdf, type SealPdfInput } from '../server/src/modules/sealing/seal-pdf.js';
import { sealedInput } from './support/peer-stacks.js';
import { median, minMax, percentile } from './support/processes.js';
import { textPdf } from './support/sample-pdfs.js';

const { values } = parseArgs({
  options: { before: { type: 'string' }, runs: { type: 'string', default: '60' } },
});
const RUNS = Number(values.runs);
const WARM_UP = 10;

type Seal = (input: SealPdfInput) => Promise<{ bytes: Uint8Array }>;

function input(original: Uint8Array, certificate: SealPdfInput['certificate']): SealPdfInput {
  const base = sealedInput(original);
  const entry = base.auditEntries[0];
  return {
    ...base,
    auditEntries: Array.from({ length: 20 }, (_, i) => ({ ...entry, at: `${entry.at}${i}` })),
    fields: [1, 2].map((page) => ({
      type: 'text',
      page,
      x: 72,
      y: 100,
      width: 200,
      height: 20,
      label: 'Company',
      value: 'Analytical Engines Ltd',
      tagBox: null,
      signeeName: 'Zoë Ünal',
      signeeEmail: 'zoe@example.com',
      filledAt: '2024-05-01T10:00:00Z',
    })),
    documentName: 'Benchmark contract',
    documentId: 'doc_bench',
    sandbox: false,
    certificate,
  };
}

// Wall time, and this process's CPU time (user + system), which a busy machine's waits for
// a core leave out.
async function time(seal: Seal, sealInput: SealPdfInput): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await seal(sealInput);
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

function spread(values: number[]): string {
  return `min–max ${minMax(values, 1)} ms, p25–p75 ${percentile(values, 25).toFixed(1)}–${percentile(values, 75).toFixed(1)} ms`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'signet-evidence-bench-'));
  try {
    const certificate = await loadOrCreateSealCertificate({ dataDir: dir });
    const sealInput = input(await textPdf(10), certificate);
    const sealed = (await sealPdf(sealInput)).bytes;
    const found = findEvidence(sealed, 'signet-evidence');
    if (!found) throw new Error('no evidence.json in the sealed file');
    // The stream's /Length: its bytes as embedded, compressed.
    const head = Buffer.from(sealed.subarray(found.offset, found.offset + 200)).toString('latin1');
    const embedded = Number(/\/Length (\d+)/.exec(head)?.[1]);
    console.log(
      `evidence.json, 20 audit entries: ${found.bytes.length} bytes decoded, ${embedded} bytes embedded (compressed)`,
    );
    if (!values.before) return;

    const before = (await import(join(values.before, 'server/src/modules/sealing/seal-pdf.ts')))
      .sealPdf as Seal;
    const after: Seal = sealPdf;
    for (let i = 0; i < WARM_UP; i++) {
      await before(sealInput);
      await after(sealInput);
    }
    const runs: Record<'before' | 'after', Array<{ wall: number; cpu: number }>> = {
      before: [],
      after: [],
    };
    for (let i = 0; i < RUNS; i++) {
      // Alternating, each side first half the time: drift falls on both alike.
      const order = i % 2 ? (['before', 'after'] as const) : (['after', 'before'] as const);
      for (const side of order)
        runs[side].push(await time(side === 'before' ? before : after, sealInput));
    }
    for (const measure of ['wall', 'cpu'] as const) {
      const b = runs.before.map((r) => r[measure]);
      const a = runs.after.map((r) => r[measure]);
      const [mb, ma] = [median(b), median(a)];
      // Each run's two seals ran back to back: their difference leaves out most of the drift.
      const paired = a.map((t, i) => t - b[i]);
      const d = median(paired);
      console.log(`${measure} time, ${RUNS} runs each:`);
      console.log(
        `  without evidence (${values.before}): median ${mb.toFixed(2)} ms (${spread(b)})`,
      );
      console.log(`  with evidence (this checkout): median ${ma.toFixed(2)} ms (${spread(a)})`);
      console.log(
        `  added: ${(ma - mb).toFixed(2)} ms = ${(((ma - mb) / mb) * 100).toFixed(1)}% of the median (goal < 10%); paired differences: median ${d.toFixed(2)} ms = ${((d / mb) * 100).toFixed(1)}% (p25–p75 ${percentile(paired, 25).toFixed(2)}–${percentile(paired, 75).toFixed(2)} ms); floors ${Math.min(...b).toFixed(2)} vs ${Math.min(...a).toFixed(2)} ms`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
