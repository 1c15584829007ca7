import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makePdf } from '../test/helpers/pdf.js';
import {
  createChildren,
  createKeyAndTenant,
  isMain,
  median,
  percentile,
  startService,
} from './support/processes.js';

/** Figures of the sign-to-signed benchmark. */
export type SignToSignedResult = {
  runs: number;
  /** The first signatures after the start (not counted): the first loads the sealing thread. */
  warmupMs: number[];
  latenciesMs: number[];
  medianMs: number;
  p90Ms: number;
  goalMs: number;
  met: boolean;
};

const WARM_UP_WAIT_MS = 3000;

async function json(res: Response, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Time from the last signature's commit (the signee's signedAt) to the document's commit to
 * signed (its updatedAt), both stamped by the service's clock, for a 10-page PDF on SQLite.
 * The first `warmup` signatures after the start are reported apart: the first waits for the
 * sealing thread to start and load the PDF library and fonts (over a second), the next few
 * share the thread with its warm-up seals. The goal is for a service that has sealed before.
 */
export async function runSignToSignedBench(
  options: { runs?: number; warmup?: number; log?: (line: string) => void } = {},
): Promise<SignToSignedResult> {
  const runs = options.runs ?? 15;
  const warmup = options.warmup ?? 5;
  const log = options.log ?? console.log;
  const children = createChildren();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-bench-sign-'));
  try {
    const service = await startService(children, { dataDir });
    const { apiKey, tenantId } = await createKeyAndTenant(service.base);
    const pdf = makePdf({ pages: 10 });
    const latencies: number[] = [];
    for (let i = 0; i < warmup + runs; i++) {
      // The first send starts the sealing thread, which warms itself with throwaway seals
      // (seal-worker.ts, about half a second of one CPU): the runs are timed after that.
      if (i === warmup) await new Promise((r) => setTimeout(r, WARM_UP_WAIT_MS));
      const email = `signer${i}.${Date.now()}@example.com`;
      const form = new FormData();
      form.append('tenantId', tenantId);
      form.append('signees', JSON.stringify([{ email, name: `Signer ${i}` }]));
      form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'c.pdf');
      const created = await json(
        await fetch(`${service.base}/api/documents/quick-create`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey },
          body: form,
        }),
        201,
        'quick-create',
      );
      const id = created.document.id as string;
      const sent = await json(
        await fetch(`${service.base}/api/documents/${id}/send-for-signing`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey },
        }),
        200,
        'send',
      );
      if (sent.deliveries[0].status !== 'sent') throw new Error('invitation not stored');
      const mailbox = await json(
        await fetch(`${service.base}/dev/mailbox?to=${encodeURIComponent(email)}`, {
          headers: { accept: 'application/json' },
        }),
        200,
        'mailbox',
      );
      const token = /\/sign\/(sg_[\w-]+)/.exec(mailbox.emails[0].text)?.[1];
      await json(
        await fetch(`${service.base}/api/signing/${token}/sign`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ consent: true, signature: { type: 'typed', text: 'Signer' } }),
        }),
        200,
        'sign',
      );
      const deadline = Date.now() + 30_000;
      for (;;) {
        const doc = await json(
          await fetch(`${service.base}/api/documents/${id}`, { headers: { 'x-api-key': apiKey } }),
          200,
          'get',
        );
        if (doc.document.status === 'signed') {
          const ms = Date.parse(doc.document.updatedAt) - Date.parse(doc.signees[0].signedAt);
          latencies.push(ms);
          log(`${i < warmup ? 'warm-up' : 'run'} ${i + 1}: ${ms} ms`);
          break;
        }
        if (Date.now() > deadline) throw new Error(`document ${id} not signed in 30 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const measured = latencies.slice(warmup);
    const result = {
      runs,
      warmupMs: latencies.slice(0, warmup),
      latenciesMs: measured,
      medianMs: median(measured),
      p90Ms: percentile(measured, 90),
      // Issue 30 (issue 4 asked for a median under 1000 ms).
      goalMs: 30,
      met: median(measured) < 30 && percentile(measured, 90) < 100,
    };
    log(
      `last signature -> signed (10-page PDF, SQLite): median ${result.medianMs} ms, p90 ${result.p90Ms} ms over ${runs} after ${warmup} warm-up signatures (${result.warmupMs.join(', ')} ms) (goal: median < ${result.goalMs} ms, p90 < 100 ms) ${result.met ? 'MET' : 'MISSED'}`,
    );
    return result;
  } finally {
    await children.stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  runSignToSignedBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
