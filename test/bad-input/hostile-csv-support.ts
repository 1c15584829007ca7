import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { TestContext } from '../helpers/context.js';
import { storedFiles } from '../faults/support.js';
import { rowCounts } from './support.js';

/** What the server answered, or the socket error when it cut the connection unanswered. */
export type Answer = { status: number; contentType: string; body: string } | Error;

/** A multipart body with the one part `csv` (a file, or a plain text part). */
export function csvMultipart(csv: Buffer, asFile = true) {
  const boundary = `----signet-hostile-${randomBytes(8).toString('hex')}`;
  const disposition = `form-data; name="csv"${asFile ? '; filename="rows.csv"' : ''}`;
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: ${disposition}\r\ncontent-type: text/csv\r\n\r\n`,
  );
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([head, csv, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}

/**
 * A POST over a real socket whose body the test writes itself: `write(n)` the next n bytes.
 * `length` is the Content-Length announced (the body's own by default; null sends it chunked).
 */
export function openPost(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  length: number | null = body.length,
) {
  const req = request(url, {
    method: 'POST',
    headers: { ...headers, ...(length === null ? {} : { 'content-length': String(length) }) },
  });
  let sent = 0;
  let answered = false;
  const answer = new Promise<Answer>((resolve) => {
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          body: text,
        }),
      );
      res.on('error', resolve);
    });
    // The server may answer (413) and close while the body is still being written.
    req.on('error', (err) => !answered && resolve(err));
  });
  return {
    answer,
    write(n = body.length - sent) {
      const piece = body.subarray(sent, sent + n);
      sent += piece.length;
      if (sent >= body.length && (length === null || length <= body.length)) req.end(piece);
      else if (!req.destroyed) req.write(piece);
    },
    left: () => body.length - sent,
  };
}

/** Posts the whole body at once. */
export function post(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  length?: number | null,
) {
  const upload = openPost(url, headers, body, length);
  upload.write();
  return upload.answer;
}

/**
 * Polls /healthz over HTTP until stopped: every probe's status and latency. A fresh
 * connection each time, as a load balancer's probe would come.
 */
export function probeHealth(baseUrl: string) {
  const probes: Array<{ status: number; ms: number }> = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const status = await new Promise<number>((resolve) =>
        request(`${baseUrl}/healthz`, { agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
          .on('error', () => resolve(0))
          .end(),
      );
      probes.push({ status, ms: performance.now() - started });
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    probes,
    stop: async () => {
      running = false;
      await loop;
      return probes;
    },
  };
}

/** Everything a refused bulk send must leave as it was: rows of every kind, stored files. */
export async function footprint(ctx: TestContext) {
  const extra = ['bulk_sends', 'bulk_send_rows', 'jobs', 'credit_ledger', 'emails'].map(
    (t) => sql`(select count(*) from ${sql.table(t)}) as ${sql.ref(t)}`,
  );
  const { rows } = await sql<Record<string, number | string>>`select ${sql.join(extra)}`.execute(
    ctx.db.kysely,
  );
  const counts = Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
  const files = storedFiles(ctx.config.dataDir, '').map((f) => f.key);
  return { ...(await rowCounts(ctx)), ...counts, files: files.sort() };
}

// A liveness bound, not a speed goal: a probe answered within it shows the event loop was never
// held for long while the hostile request was read and refused, even on a busy 2-core machine.
const LIVENESS_MS = 2000;

/**
 * Runs `attack` while /healthz is probed; asserts the answer is a problem+json with one of the
 * `statuses`, that nothing was created and every probe answered 200 within the liveness bound.
 * Returns the problem, its length in characters and the worst probe latency (ms).
 */
export async function expectRefused(
  ctx: TestContext,
  statuses: number[],
  attack: () => Promise<Answer>,
) {
  const before = await footprint(ctx);
  const health = probeHealth(ctx.baseUrl);
  const answer = await attack();
  // Two more probes: the second began after the answer, the service is still up. (A dead one
  // fails them at once; the test's timeout bounds a hung one.)
  const after = health.probes.length + 2;
  while (health.probes.length < after) await new Promise((r) => setTimeout(r, 10));
  const probes = await health.stop();
  const worst = Math.max(...probes.map((p) => p.ms));
  expect(probes.filter((p) => p.status !== 200)).toEqual([]);
  expect(worst).toBeLessThan(LIVENESS_MS);
  if (answer instanceof Error) throw answer;
  expect(statuses, answer.body.slice(0, 500)).toContain(answer.status);
  expect(answer.contentType).toContain('application/problem+json');
  const problem = JSON.parse(answer.body) as {
    status: number;
    code: string;
    detail: string;
    errors?: Array<{ path: string; message: string }>;
  };
  expect(problem.status).toBe(answer.status);
  expect(await footprint(ctx)).toEqual(before);
  return { problem, size: answer.body.length, worst, probes: probes.length };
}
