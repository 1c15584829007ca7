// Sealing benchmark: `npx tsx bench/seal.bench.ts`
//  (a) sealPdf on a 10-page PDF, (b) @libpdf/core alone loading and signing the same PDF
//  once (PAdES B-B), both as medians of RUNS alternating runs, and their ratio (goal <= 1.5x,
//  issue 30). Both are timed warm, after WARM_UP_SEALS runs each: the service warms its sealing
//  thread with as many seals before the first real one (seal-worker.ts), and before that a
//  seal measured 2-5 times its settled time while V8 was still compiling it;
//  (c) peak RSS of a fresh process sealing a generated 300-page ~40 MiB PDF (goal < 600 MB).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { P12Signer, PDF } from '@libpdf/core';
import { loadOrCreateSealCertificate } from '../server/src/modules/sealing/seal-certificate.js';
import { sealPdf, type SealPdfInput } from '../server/src/modules/sealing/seal-pdf.js';
import { WARM_UP_SEALS } from '../server/src/modules/sealing/seal-worker.js';
import { sealedInput } from './support/peer-stacks.js';
import { median, minMax } from './support/processes.js';
import { scannedPdf, textPdf } from './support/sample-pdfs.js';

const RUNS = 60;
const BIG_PAGES = 300;
const BIG_TARGET_BYTES = 40 * 1024 * 1024;

function sealInput(
  original: Uint8Array,
  certificate: SealPdfInput['certificate'],
  sandbox: boolean,
): SealPdfInput {
  return {
    ...sealedInput(original),
    documentName: 'Benchmark contract',
    documentId: 'doc_bench',
    sandbox,
    certificate,
  };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

// Child mode: seal one file and report this process's peak RSS.
async function child(mode: string, file: string, dataDir: string): Promise<void> {
  const original = new Uint8Array(readFileSync(file));
  const certificate = await loadOrCreateSealCertificate({ dataDir });
  const started = performance.now();
  if (mode === 'seal') {
    await sealPdf(sealInput(original, certificate, true));
  } else {
    const signer = await P12Signer.create(certificate.p12, certificate.password);
    await (await PDF.load(original)).sign({ signer });
  }
  const ms = performance.now() - started;
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ maxRssMb, ms }));
}

function measureChild(
  mode: string,
  file: string,
  dataDir: string,
): { maxRssMb: number; ms: number } {
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', self, '--child', mode, file, dataDir],
    {
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { maxRssMb: number; ms: number };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'signet-seal-bench-'));
  try {
    const certificate = await loadOrCreateSealCertificate({ dataDir: dir });
    const signer = await P12Signer.create(certificate.p12, certificate.password);
    const small = await textPdf(10);
    // The seal a configured certificate makes (the goal's), and the sandbox's, which also
    // marks every original page (a content stream more per page).
    const input = sealInput(small, certificate, false);
    const sandboxInput = sealInput(small, certificate, true);
    // Warm up every path (JIT, font files, signer cache) before timing.
    for (let i = 0; i < WARM_UP_SEALS; i++) {
      await sealPdf(input);
      await sealPdf(sandboxInput);
      await (await PDF.load(small)).sign({ signer });
    }
    const sealTimes: number[] = [];
    const sandboxTimes: number[] = [];
    const signTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      sealTimes.push(await time(() => sealPdf(input)));
      signTimes.push(await time(async () => (await PDF.load(small)).sign({ signer })));
      sandboxTimes.push(await time(() => sealPdf(sandboxInput)));
    }
    const a = median(sealTimes);
    const b = median(signTimes);
    console.log(
      `10-page PDF (${(small.length / 1024).toFixed(0)} KiB), ${RUNS} runs each, medians:`,
    );
    console.log(
      `  (a) sealPdf:                            ${a.toFixed(1)} ms (runs ${minMax(sealTimes, 1)})`,
    );
    console.log(
      `  (b) @libpdf/core load + PAdES sign:      ${b.toFixed(1)} ms (runs ${minMax(signTimes, 1)})`,
    );
    console.log(`  ratio a/b:                              ${(a / b).toFixed(2)}x (goal <= 1.5x)`);
    const c = median(sandboxTimes);
    console.log(
      `  (a') sealPdf in the sandbox (every page marked): ${c.toFixed(1)} ms (runs ${minMax(sandboxTimes, 1)}) = ${(c / b).toFixed(2)}x of (b)`,
    );

    const big = await scannedPdf(BIG_PAGES, BIG_TARGET_BYTES);
    const bigFile = join(dir, 'big.pdf');
    writeFileSync(bigFile, big);
    const sealed = measureChild('seal', bigFile, dir);
    const baseline = measureChild('sign', bigFile, dir);
    console.log(
      `${BIG_PAGES}-page PDF (${(big.length / 1024 / 1024).toFixed(1)} MiB), fresh process each:`,
    );
    console.log(
      `  (c) sealPdf peak RSS:                   ${sealed.maxRssMb.toFixed(0)} MB in ${sealed.ms.toFixed(0)} ms (goal < 600 MB)`,
    );
    console.log(
      `      @libpdf/core sign alone peak RSS:   ${baseline.maxRssMb.toFixed(0)} MB in ${baseline.ms.toFixed(0)} ms`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], process.argv[5]);
} else {
  await main();
}
