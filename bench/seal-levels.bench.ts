// Long-term seal levels (issue 46): `npx tsx bench/seal-levels.bench.ts`
// A 10-page PDF sealed at B-T and at B-LT against a local PKI on loopback (openssl CA, OCSP
// responder, RFC 3161 time-stamp authority: test/helpers/local-pki.ts), alternating, medians
// with their range: (a) B-T; (b) B-LT with the revocation data cached (the goal: (b) - (a)
// < 30 ms); (c) B-LT with the cache emptied first, every OCSP response fetched from the
// loopback responder (goal: (c) - (a) < 300 ms); (d) B-LTA, cached, for reference.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetRevocationAnswers } from '../server/src/modules/sealing/revocation.js';
import { sealPdf, type SealPdfInput } from '../server/src/modules/sealing/seal-pdf.js';
import type { SealLevel } from '../server/src/modules/sealing/seal-types.js';
import { startLocalPki } from '../test/helpers/local-pki.js';
import { sealedInput } from './support/peer-stacks.js';
import { median, minMax } from './support/processes.js';
import { textPdf } from './support/sample-pdfs.js';

const RUNS = Number(process.env.RUNS ?? 30);
const WARM_UP = 15;

const dir = mkdtempSync(join(tmpdir(), 'signet-levels-bench-'));
const pki = await startLocalPki();
try {
  const certificate = await pki.sealCertificate();
  const original = await textPdf(10);
  const input = (level: SealLevel): SealPdfInput => ({
    ...sealedInput(original),
    originalSha256: createHash('sha256').update(original).digest('hex'),
    documentName: 'Benchmark contract',
    documentId: 'doc_bench',
    sandbox: false,
    certificate,
    tsaUrl: pki.tsa.url,
    level,
  });
  const time = async (level: SealLevel, cold = false) => {
    if (cold) forgetRevocationAnswers();
    const start = performance.now();
    const sealed = await sealPdf(input(level));
    if (sealed.level !== level) throw new Error(`sealed at ${sealed.level}, not ${level}`);
    return performance.now() - start;
  };
  for (let i = 0; i < WARM_UP; i++) {
    await time('B-T');
    await time('B-LT');
    await time('B-LTA');
  }
  const runs = {
    bt: [] as number[],
    lt: [] as number[],
    cold: [] as number[],
    lta: [] as number[],
  };
  for (let i = 0; i < RUNS; i++) {
    runs.bt.push(await time('B-T'));
    runs.lt.push(await time('B-LT'));
    runs.cold.push(await time('B-LT', true));
    runs.lta.push(await time('B-LTA'));
  }
  const [a, b, c, d] = [runs.bt, runs.lt, runs.cold, runs.lta].map(median);
  const line = (label: string, value: number, values: number[]) =>
    console.log(`  ${label.padEnd(44)}${value.toFixed(1)} ms (runs ${minMax(values, 1)})`);
  console.log(`10-page PDF, ${RUNS} alternating runs each, medians:`);
  line('(a) B-T:', a!, runs.bt);
  line('(b) B-LT, revocation data cached:', b!, runs.lt);
  line('(c) B-LT, fetched from the loopback OCSP:', c!, runs.cold);
  line('(d) B-LTA, cached:', d!, runs.lta);
  console.log(`  B-LT adds, cached:  ${(b! - a!).toFixed(1)} ms (goal < 30 ms)`);
  console.log(`  B-LT adds, fetched: ${(c! - a!).toFixed(1)} ms (goal < 300 ms)`);
} finally {
  await pki.close();
  rmSync(dir, { recursive: true, force: true });
}
