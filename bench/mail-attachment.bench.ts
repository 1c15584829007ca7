// Server memory while it e-mails a signed copy: `npx tsx bench/mail-attachment.bench.ts
// [--runs 3]`. Goal (issue 26): sending a completion e-mail with a 5 MiB attachment raises the
// server's peak RSS by less than 32 MiB: the sealed file is streamed from storage into the
// message, never held whole (let alone twice).
//
// Each run starts a fresh `signet serve` child (SQLite, local files) whose SMTP server is a
// sink in this process that counts bytes without keeping them. The sender signs their own
// 5 MiB document (so one completion e-mail goes out); the sink refuses that e-mail's first
// attempt, the service is stopped, and a fresh one on the same data directory delivers it from
// the outbox (so nothing of the seal is in its memory). Before that retry the kernel's peak-RSS
// counter is reset (clear_refs 5) and VmRSS is polled every 10 ms; the increase is
// max(VmHWM, polled VmRSS) during the delivery minus VmRSS just before it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SMTPServer } from 'smtp-server';
import { makeImagePdf } from '../test/helpers/pdf.js';
import {
  createChildren,
  createKeyAndTenant,
  isMain,
  median,
  readMemory,
  startService,
} from './support/processes.js';

const MiB = 1024 * 1024;
const GOAL_BYTES = 32 * MiB;

/** One fresh server's figures, in bytes. */
export type MailAttachmentRun = {
  sealedBytes: number;
  messageBytes: number;
  rssBefore: number;
  peakRss: number;
  increase: number;
  deliveryMs: number;
};

/** What the benchmark measured. */
export type MailAttachmentBenchResult = {
  name: 'mail-attachment';
  runs: MailAttachmentRun[];
  medianIncrease: number;
  goalBytes: number;
  passed: boolean;
};

// An SMTP server that refuses while `refusing`, keeps small messages' text (the invitation's
// link) and only counts the bytes of large ones.
async function startSink() {
  const state = { refusing: false, texts: [] as string[], largest: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 64 * MiB,
    onRcptTo(_address, _session, callback) {
      if (!state.refusing) return callback();
      const err = new Error('Try again later') as Error & { responseCode: number };
      err.responseCode = 451;
      callback(err);
    },
    onData(stream, _session, callback) {
      let bytes = 0;
      const kept: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes < MiB) kept.push(chunk);
      });
      stream.on('end', () => {
        if (bytes < MiB) state.texts.push(Buffer.concat(kept).toString('latin1'));
        state.largest = Math.max(state.largest, bytes);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// Raw messages as text with quoted-printable undone (a soft line break would cut a link).
const decoded = (texts: string[]) =>
  texts.map((t) => t.replace(/=\r?\n/g, '').replace(/=3D/g, '='));

const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Measures `runs` fresh servers, each e-mailing one 5 MiB signed copy; never leaves a child. */
export async function runMailAttachmentBench(
  options: { runs?: number; mib?: number; log?: (line: string) => void } = {},
): Promise<MailAttachmentBenchResult> {
  const runs = options.runs ?? 3;
  const log = options.log ?? (() => {});
  const results: MailAttachmentRun[] = [];
  for (let i = 1; i <= runs; i++) {
    const children = createChildren();
    const sink = await startSink();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-bench-mail-'));
    try {
      const service = await startService(children, {
        dataDir,
        env: { SMTP_URL: sink.url, MAIL_RETRY_BASE_MS: '4000' },
      });
      const base = service.base;
      const { apiKey, tenantId } = await createKeyAndTenant(base, async () => {
        await until(() => sink.state.texts.some((t) => t.includes('verify-email')), 'verification');
        return decoded(sink.state.texts);
      });
      const headers = { 'x-api-key': apiKey };
      const me = (await (await fetch(`${base}/api/auth/me`, { headers })).json()) as {
        user: { email: string; name: string };
      };
      const form = new FormData();
      form.append('tenantId', tenantId);
      form.append('signees', JSON.stringify([{ email: me.user.email, name: me.user.name }]));
      form.append(
        'file',
        new Blob([new Uint8Array(makeImagePdf((options.mib ?? 5) * MiB))], {
          type: 'application/pdf',
        }),
        'photo.pdf',
      );
      const created = await fetch(`${base}/api/documents/quick-create`, {
        method: 'POST',
        headers,
        body: form,
      });
      if (created.status !== 201) throw new Error(`quick-create: ${await created.text()}`);
      const id = ((await created.json()) as { document: { id: string } }).document.id;
      await fetch(`${base}/api/documents/${id}/send-for-signing`, { method: 'POST', headers });
      await until(() => sink.state.texts.some((t) => t.includes('/sign/')), 'the invitation');
      const token = /\/sign\/(sg_[\w-]+)/.exec(decoded(sink.state.texts).join('\n'))![1];
      sink.state.refusing = true;
      const signed = await fetch(`${base}/api/signing/${token}/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ consent: true, signature: { type: 'typed', text: 'Bench' } }),
      });
      if (signed.status !== 200) throw new Error(`sign: ${await signed.text()}`);
      let sealedBytes = 0;
      await until(async () => {
        const doc = (await (await fetch(`${base}/api/documents/${id}`, { headers })).json()) as {
          document: { status: string; downloadUrl: string };
        };
        if (doc.document.status !== 'signed') return false;
        const url = new URL(doc.document.downloadUrl);
        sealedBytes = (await (await fetch(`${base}${url.pathname}${url.search}`)).arrayBuffer())
          .byteLength;
        return true;
      }, 'the seal');
      // The first attempt is refused; then the service stops and a fresh one on the same data
      // takes the e-mail from the outbox: its memory holds nothing of the seal.
      await new Promise((r) => setTimeout(r, 500));
      await children.stopAll();
      const fresh = await startService(children, {
        dataDir,
        env: { SMTP_URL: sink.url, MAIL_RETRY_BASE_MS: '4000' },
      });
      await new Promise((r) => setTimeout(r, 1000));
      const rssBefore = readMemory(fresh.pid).rss;
      writeFileSync(`/proc/${fresh.pid}/clear_refs`, '5');
      let polled = rssBefore;
      const poll = setInterval(() => {
        polled = Math.max(polled, readMemory(fresh.pid).rss);
      }, 10);
      sink.state.refusing = false;
      const started = performance.now();
      try {
        await until(() => sink.state.largest > sealedBytes, 'the completion e-mail');
      } finally {
        clearInterval(poll);
      }
      const deliveryMs = performance.now() - started;
      const peakRss = Math.max(readMemory(fresh.pid).hwm, polled);
      const run = {
        sealedBytes,
        messageBytes: sink.state.largest,
        rssBefore,
        peakRss,
        increase: peakRss - rssBefore,
        deliveryMs,
      };
      results.push(run);
      log(
        `run ${i}/${runs}: sealed ${(sealedBytes / MiB).toFixed(2)} MiB, message ${(run.messageBytes / MiB).toFixed(2)} MiB; ` +
          `RSS before ${(rssBefore / MiB).toFixed(1)} MiB, peak ${(peakRss / MiB).toFixed(1)} MiB (+${(run.increase / MiB).toFixed(1)} MiB)`,
      );
    } finally {
      await children.stopAll();
      await sink.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const medianIncrease = median(results.map((r) => r.increase));
  return {
    name: 'mail-attachment',
    runs: results,
    medianIncrease,
    goalBytes: GOAL_BYTES,
    passed: medianIncrease < GOAL_BYTES,
  };
}

/** The human-readable report of a result. */
export function formatMailAttachmentBench(r: MailAttachmentBenchResult): string {
  const mib = (b: number) => `${(b / MiB).toFixed(1)} MiB`;
  return [
    `completion e-mail with the signed copy attached (${r.runs.length} fresh servers)`,
    ...r.runs.map(
      (run, i) =>
        `  run ${i + 1}: sealed ${mib(run.sealedBytes)}, message ${mib(run.messageBytes)}, RSS +${mib(run.increase)} (before ${mib(run.rssBefore)}), delivered in ${run.deliveryMs.toFixed(0)} ms`,
    ),
    `median RSS increase: ${mib(r.medianIncrease)} (goal < ${mib(r.goalBytes)}): ${r.passed ? 'PASS' : 'FAIL'}`,
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '3' }, mib: { type: 'string', default: '5' } },
  });
  try {
    const result = await runMailAttachmentBench({
      runs: Number(values.runs),
      mib: Number(values.mib),
      log: (line) => console.log(line),
    });
    console.log(formatMailAttachmentBench(result));
    if (!result.passed) process.exitCode = 1;
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  }
}
