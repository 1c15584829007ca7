// Server memory during a large upload: `npx tsx bench/upload-memory.bench.ts [--runs 3]`.
// Goal (issue 3): one 45 MiB quick-create raises the server's peak RSS by less than 64 MiB.
//
// Each run starts a fresh `signet serve` child (SQLite, local files), sets up an account,
// warms the route with a small upload, lets the process settle, resets the kernel's peak-RSS
// counter (clear_refs 5) and then uploads 45 MiB while polling VmRSS every 10 ms. The
// increase is max(VmHWM, polled VmRSS) after the upload minus VmRSS just before it.
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makePdf } from '../test/helpers/pdf.js';
import {
  createChildren,
  createKeyAndTenant,
  isMain,
  median,
  readMemory,
  startService,
} from './support/processes.js';

/** How the benchmark runs. */
export type UploadMemoryBenchOptions = { runs?: number; log?: (line: string) => void };

/** One fresh server's figures, in bytes. */
export type UploadMemoryRun = {
  rssBefore: number;
  peakRss: number;
  increase: number;
  rssAfter: number;
  uploadMs: number;
  /** Whether the peak counter could be reset, so VmHWM covers the upload alone. */
  hwmReset: boolean;
};

/** What the benchmark measured. */
export type UploadMemoryBenchResult = {
  name: 'upload-memory';
  fileBytes: number;
  runs: UploadMemoryRun[];
  medianIncrease: number;
  goalBytes: number;
  passed: boolean;
};

const MiB = 1024 * 1024;
const GOAL_BYTES = 64 * MiB;

async function quickCreate(base: string, apiKey: string, tenantId: string, pdf: Buffer) {
  const form = new FormData();
  form.append('tenantId', tenantId);
  form.append('signees', JSON.stringify([{ email: 'alice@example.com', name: 'Alice' }]));
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'big.pdf');
  const res = await fetch(`${base}/api/documents/quick-create`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey },
    body: form,
  });
  if (res.status !== 201) throw new Error(`quick-create: ${res.status} ${await res.text()}`);
}

// Resets VmHWM to the current RSS (Linux >= 4.0); false when not permitted.
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Measures `runs` fresh servers, each taking one 45 MiB upload; never leaves a child. */
export async function runUploadMemoryBench(
  options: UploadMemoryBenchOptions = {},
): Promise<UploadMemoryBenchResult> {
  const runs = options.runs ?? 3;
  const log = options.log ?? (() => {});
  const big = makePdf({ pages: 2, padBytes: 45 * MiB });
  const small = makePdf({ pages: 1 });
  const results: UploadMemoryRun[] = [];
  for (let i = 1; i <= runs; i++) {
    const children = createChildren();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-bench-mem-'));
    try {
      const service = await startService(children, { dataDir });
      const { apiKey, tenantId } = await createKeyAndTenant(service.base);
      for (let w = 0; w < 5; w++) await quickCreate(service.base, apiKey, tenantId, small);
      await new Promise((r) => setTimeout(r, 1000));
      const rssBefore = readMemory(service.pid).rss;
      const hwmReset = resetPeak(service.pid);
      let polled = rssBefore;
      const poll = setInterval(() => {
        polled = Math.max(polled, readMemory(service.pid).rss);
      }, 10);
      const started = performance.now();
      try {
        await quickCreate(service.base, apiKey, tenantId, big);
      } finally {
        clearInterval(poll);
      }
      const uploadMs = performance.now() - started;
      const after = readMemory(service.pid);
      // Without a reset VmHWM includes start-up peaks, so only the polled value is about the upload.
      const peakRss = hwmReset ? Math.max(after.hwm, polled) : polled;
      const run = {
        rssBefore,
        peakRss,
        increase: peakRss - rssBefore,
        rssAfter: after.rss,
        uploadMs,
        hwmReset,
      };
      results.push(run);
      log(
        `run ${i}/${runs}: RSS before ${(rssBefore / MiB).toFixed(1)} MiB, peak ${(peakRss / MiB).toFixed(1)} MiB ` +
          `(+${(run.increase / MiB).toFixed(1)} MiB), after ${(after.rss / MiB).toFixed(1)} MiB, upload ${uploadMs.toFixed(0)} ms`,
      );
    } finally {
      await children.stopAll();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const medianIncrease = median(results.map((r) => r.increase));
  return {
    name: 'upload-memory',
    fileBytes: big.length,
    runs: results,
    medianIncrease,
    goalBytes: GOAL_BYTES,
    passed: medianIncrease < GOAL_BYTES,
  };
}

/** The human-readable report of a result. */
export function formatUploadMemoryBench(result: UploadMemoryBenchResult): string {
  const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
  return [
    `one ${mib(result.fileBytes)} quick-create per fresh server, ${result.runs.length} servers; ` +
      `peak from ${result.runs.every((r) => r.hwmReset) ? 'VmHWM (reset before the upload) and ' : ''}VmRSS polled every 10 ms`,
    `increases: ${result.runs.map((r) => mib(r.increase)).join(', ')}`,
    `median peak RSS increase: ${mib(result.medianIncrease)} (goal < ${mib(result.goalBytes)}): ${result.passed ? 'PASS' : 'FAIL'}`,
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  try {
    const result = await runUploadMemoryBench({
      runs: Number(values.runs),
      log: (line) => console.log(line),
    });
    console.log(formatUploadMemoryBench(result));
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  }
}
