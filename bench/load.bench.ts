// Mixed load with webhooks attached: `npx tsx bench/load.bench.ts [--clients 50] [--duration 60]
// [--engine sqlite|postgres] [--processes 1|2] [--settle 120] [--profile DIR]`. Goal (issue 7): 50 concurrent API clients for
// 60 s mixing quick-create, get, list and send-for-signing give zero 5xx, lose no document
// (every created one is readable) and no event (every status change in /api/events is
// delivered to each active webhook, or recorded as failed after three attempts); p50 and p99
// latency per endpoint are reported.
//
// The service is a `signet serve` child; the clients and the webhook receiver run here. With
// `--processes 2` (PostgreSQL only) two services share the database, the files and SECRET_KEY,
// as docs/operations.md's scale-out has it, and the clients take turns between them. The
// report gives the CPU the services and a PostgreSQL on this machine used meanwhile. Two
// webhooks answer 200, one answers 500 so its deliveries exhaust their three attempts on a
// shrunk schedule (0, 500, 1500 ms) and the settle phase stays short.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makePdf } from '../test/helpers/pdf.js';
import { startBenchPostgres, type BenchPostgres } from './support/postgres.js';
import { markDeletion } from './support/scratch-files.js';
import * as proc from './support/processes.js';

/** How the benchmark runs; every field has a default. */
export type LoadBenchOptions = {
  clients?: number;
  durationSeconds?: number;
  engine?: 'sqlite' | 'postgres';
  /** Service processes sharing the database (2: PostgreSQL only). */
  processes?: number;
  /** The longest the settle phase may wait for every delivery to finish. */
  settleSeconds?: number;
  /** Write a V8 CPU profile of the service process into this directory. */
  profileDir?: string | null;
  log?: (line: string) => void;
};

/** Requests and latency of one endpoint, in milliseconds. */
export type EndpointFigures = {
  endpoint: string;
  requests: number;
  serverErrors: number;
  otherErrors: number;
  p50Ms: number;
  p99Ms: number;
};

/** What the benchmark measured. */
export type LoadBenchResult = {
  name: 'load';
  settings: Required<Omit<LoadBenchOptions, 'log' | 'profileDir'>> & { retryScheduleMs: string };
  endpoints: EndpointFigures[];
  requestsPerSecond: number;
  serverErrors: number;
  /** Failed connections or resets: no status code at all. */
  networkErrors: number;
  documentsCreated: number;
  lostDocuments: number;
  events: number;
  deliveries: number;
  lostEvents: number;
  settleSeconds: number;
  passed: boolean;
  machine: { loadAverageBefore: number; loadAverageAfter: number };
  /** Cores used during the load (Linux only). */
  cpu: proc.CpuShares | null;
};

type Op = 'quick-create' | 'get' | 'list' | 'send-for-signing';
const ENDPOINTS: Record<Op, string> = {
  'quick-create': 'POST /api/documents/quick-create',
  get: 'GET /api/documents/{id}',
  list: 'GET /api/documents?tenantId=…',
  'send-for-signing': 'POST /api/documents/{id}/send-for-signing',
};
const SCHEDULE = '0,500,1500';

type Delivery = { eventId: string; status: string; attempts: unknown[] };
type Webhook = { id: string; fails: boolean };

// The receiver: paths starting with /fail answer 500, every other path 200 at once.
async function startReceiver() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(req.url?.startsWith('/fail') ? 500 : 200).end());
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** Runs the mixed load, settles, checks that nothing was lost; never leaves a child. */
export async function runLoadBench(options: LoadBenchOptions = {}): Promise<LoadBenchResult> {
  const clients = options.clients ?? 50;
  const durationSeconds = options.durationSeconds ?? 60;
  const engine = options.engine ?? 'sqlite';
  const processes = options.processes ?? 1;
  if (processes > 1 && engine !== 'postgres') {
    throw new Error("Several service processes need PostgreSQL: a SQLite file is one process's.");
  }
  const settleLimit = options.settleSeconds ?? 120;
  const log = options.log ?? (() => {});
  const children = proc.createChildren();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-bench-load-'));
  const receiver = await startReceiver();
  let postgres: BenchPostgres | null = null;
  const loadAverageBefore = loadavg()[0];
  try {
    if (engine === 'postgres') postgres = await startBenchPostgres({ durable: true });
    const start = () =>
      proc.startService(children, {
        dataDir,
        databaseUrl: postgres?.url,
        nodeArgs: proc.profileArgs(options.profileDir),
        env: {
          WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
          WEBHOOK_RETRY_SCHEDULE_MS: SCHEDULE,
          WEBHOOK_TIMEOUT_MS: '2000',
          // Like the rate limit (startService), the daily e-mail quota stays out of the way: the
          // load sends about 9000 documents a minute to two signees each, and past the default
          // 10 000 e-mails a day the sends would measure 429 answers instead of sending.
          MAIL_DAILY_LIMIT_PER_TENANT: '1000000000',
        },
      });
    // The first one writes the sandbox's secret key and seal certificate into the shared
    // DATA_DIR; the others start after it and read the same ones.
    const services = [await start()];
    while (services.length < processes) services.push(await start());
    const { base } = services[0];
    const { apiKey, tenantId } = await proc.createKeyAndTenant(base);
    const grant = spawnSync(
      process.execPath,
      ['bin/signet.mjs', 'credits', 'grant', tenantId, '1000000'],
      {
        cwd: proc.ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: postgres?.url ?? '' },
        encoding: 'utf8',
      },
    );
    if (grant.status !== 0) throw new Error(`credits grant: ${grant.stderr}`);
    const request = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          'x-api-key': apiKey,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
      return JSON.parse(text) as unknown;
    };
    // Signee events on: then every event the feed lists is one every webhook receives.
    await request('PATCH', `/api/tenants/${tenantId}/settings`, { signeeEvents: true });
    const webhooks: Webhook[] = [];
    for (const name of ['ok-1', 'ok-2', 'fail']) {
      const created = (await request('POST', `/api/tenants/${tenantId}/webhooks`, {
        url: `${receiver.base}/${name}`,
      })) as { webhook: { id: string } };
      webhooks.push({ id: created.webhook.id, fails: name === 'fail' });
    }

    // The load: each client loops over a weighted mix until the deadline.
    const pdf = new Uint8Array(makePdf({ pages: 2 }));
    const signees = JSON.stringify([
      { email: 'alice@example.com', name: 'Alice Example' },
      { email: 'bob@example.com', name: 'Bob Example' },
    ]);
    const latencies = new Map<Op, number[]>(Object.keys(ENDPOINTS).map((k) => [k as Op, []]));
    const errors = new Map<Op, { server: number; other: number }>();
    let networkErrors = 0;
    const created: string[] = [];
    const sendable: string[] = [];
    const sent: string[] = [];
    // `to`: the service process this client talks to.
    const timed = async (to: string, op: Op, path: string, init: RequestInit) => {
      const started = performance.now();
      try {
        const res = await fetch(`${to}${path}`, init);
        const text = await res.text();
        latencies.get(op)!.push(performance.now() - started);
        if (res.status >= 400) {
          const e = errors.get(op) ?? { server: 0, other: 0 };
          if (res.status >= 500) e.server++;
          else e.other++;
          errors.set(op, e);
          if (e.server + e.other <= 3) log(`${op}: ${res.status} ${text.slice(0, 200)}`);
          return null;
        }
        return JSON.parse(text) as { document?: { id: string } };
      } catch (err) {
        networkErrors++;
        if (networkErrors <= 3) log(`${op}: ${String(err)}`);
        return null;
      }
    };
    const auth = { 'x-api-key': apiKey };
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
    const deadline = Date.now() + durationSeconds * 1000;
    const startedAt = performance.now();
    log(`${clients} clients for ${durationSeconds} s on ${engine}, ${processes} process(es)`);
    const cpu = proc.measureCpuShares(
      services.map((s) => s.pid),
      engine === 'postgres',
    );
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        const to = services[client % services.length].base;
        while (Date.now() < deadline) {
          const roll = Math.random();
          if (roll < 0.3 || created.length === 0) {
            const form = new FormData();
            form.append('tenantId', tenantId);
            form.append('signees', signees);
            form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'load.pdf');
            const body = await timed(to, 'quick-create', '/api/documents/quick-create', {
              method: 'POST',
              headers: auth,
              body: form,
            });
            if (body?.document) {
              created.push(body.document.id);
              sendable.push(body.document.id);
            }
          } else if (roll < 0.6) {
            await timed(to, 'get', `/api/documents/${pick(created)}`, { headers: auth });
          } else if (roll < 0.85 || sendable.length === 0) {
            await timed(to, 'list', `/api/documents?tenantId=${tenantId}`, { headers: auth });
          } else {
            // Each draft is sent once, by whichever client takes it off the list.
            const id = sendable.splice(Math.floor(Math.random() * sendable.length), 1)[0];
            const ok = await timed(
              to,
              'send-for-signing',
              `/api/documents/${id}/send-for-signing`,
              {
                method: 'POST',
                headers: auth,
              },
            );
            if (ok) sent.push(id);
          }
        }
      }),
    );
    const elapsed = (performance.now() - startedAt) / 1000;
    const cpuShares = cpu.stop();
    const total = [...latencies.values()].reduce((n, l) => n + l.length, 0);
    log(`load done: ${total} requests in ${elapsed.toFixed(1)} s; settling`);

    // Settle: every delivery of every webhook leaves `pending`.
    const deliveriesOf = async (webhookId: string) => {
      const all = new Map<string, Delivery>();
      for (let cursor: string | null = ''; cursor !== null;) {
        const q = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = (await request(
          'GET',
          `/api/tenants/${tenantId}/webhooks/${webhookId}/deliveries?${q}`,
        )) as { deliveries: Delivery[]; nextCursor: string | null };
        for (const d of page.deliveries) all.set(d.eventId, d);
        cursor = page.nextCursor;
      }
      return all;
    };
    const settleStarted = performance.now();
    let logs = new Map<string, Map<string, Delivery>>();
    for (;;) {
      logs = new Map();
      for (const w of webhooks) logs.set(w.id, await deliveriesOf(w.id));
      const pending = [...logs.values()].flatMap((m) => [...m.values()]);
      if (!pending.some((d) => d.status === 'pending')) break;
      if (performance.now() - settleStarted > settleLimit * 1000) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const settleSeconds = (performance.now() - settleStarted) / 1000;

    // Nothing lost: every document readable, every event delivered or failed after 3 attempts.
    let lostDocuments = 0;
    for (let i = 0; i < created.length; i += 25) {
      const batch = created.slice(i, i + 25).map((id) =>
        fetch(`${base}/api/documents/${id}`, { headers: auth }).then(async (res) => {
          await res.arrayBuffer();
          if (res.status !== 200) lostDocuments++;
        }),
      );
      await Promise.all(batch);
    }
    const events: string[] = [];
    for (let more = true; more;) {
      const after = events.length ? `&after=${events.at(-1)}` : '';
      const page = (await request('GET', `/api/events?tenantId=${tenantId}${after}`)) as {
        events: Array<{ id: string }>;
        hasMore: boolean;
      };
      events.push(...page.events.map((e) => e.id));
      more = page.hasMore;
    }
    let lostEvents = 0;
    for (const id of events) {
      const ok = webhooks.every((w) => {
        const d = logs.get(w.id)?.get(id);
        return w.fails
          ? d?.status === 'failed' && d.attempts.length === 3
          : d?.status === 'succeeded';
      });
      if (!ok) lostEvents++;
    }
    const deliveries = [...logs.values()].reduce((n, m) => n + m.size, 0);
    const endpoints = (Object.keys(ENDPOINTS) as Op[]).map((op) => {
      const l = latencies.get(op)!;
      return {
        endpoint: ENDPOINTS[op],
        requests: l.length,
        serverErrors: errors.get(op)?.server ?? 0,
        otherErrors: errors.get(op)?.other ?? 0,
        p50Ms: l.length ? proc.percentile(l, 50) : 0,
        p99Ms: l.length ? proc.percentile(l, 99) : 0,
      };
    });
    const serverErrors = endpoints.reduce((n, e) => n + e.serverErrors, 0);
    return {
      name: 'load',
      settings: {
        clients,
        durationSeconds,
        engine,
        processes,
        settleSeconds: settleLimit,
        retryScheduleMs: SCHEDULE,
      },
      endpoints,
      requestsPerSecond: total / elapsed,
      serverErrors,
      networkErrors,
      documentsCreated: created.length,
      lostDocuments,
      events: events.length,
      deliveries,
      lostEvents,
      settleSeconds,
      passed: serverErrors === 0 && networkErrors === 0 && lostDocuments === 0 && lostEvents === 0,
      machine: { loadAverageBefore, loadAverageAfter: loadavg()[0] },
      cpu: cpuShares,
    };
  } finally {
    await children.stopAll();
    await receiver.close();
    await postgres?.close();
    rmSync(dataDir, { recursive: true, force: true });
    markDeletion();
  }
}

/** The human-readable report of a result. */
export function formatLoadBench(r: LoadBenchResult): string {
  const s = r.settings;
  return [
    `${s.clients} clients x ${s.durationSeconds} s on ${s.engine}, ${s.processes} service process(es), webhooks: 2 answering 200, 1 answering 500 ` +
      `(schedule ${s.retryScheduleMs} ms); ${r.requestsPerSecond.toFixed(0)} req/s overall`,
    ...r.endpoints.map(
      (e) =>
        `  ${e.endpoint.padEnd(44)} ${String(e.requests).padStart(6)} requests, p50 ${e.p50Ms.toFixed(1)} ms, ` +
        `p99 ${e.p99Ms.toFixed(1)} ms, 5xx ${e.serverErrors}, 4xx ${e.otherErrors}`,
    ),
    `5xx: ${r.serverErrors}, network errors: ${r.networkErrors}`,
    `documents: ${r.documentsCreated} created, ${r.lostDocuments} not readable`,
    `events: ${r.events}, deliveries: ${r.deliveries}, lost: ${r.lostEvents} (settled in ${r.settleSeconds.toFixed(1)} s)`,
    ...(r.cpu
      ? [
          `CPU during the load: services ${r.cpu.services.toFixed(2)} cores` +
            (r.cpu.postgres === null ? '' : `, PostgreSQL ${r.cpu.postgres.toFixed(2)}`) +
            `, the whole machine ${r.cpu.machine.toFixed(2)} of ${r.cpu.cores}`,
        ]
      : []),
    `zero 5xx, zero lost documents, zero lost events: ${r.passed ? 'PASS' : 'FAIL'}`,
  ].join('\n');
}

if (proc.isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string', default: '50' },
      duration: { type: 'string', default: '60' },
      engine: { type: 'string', default: 'sqlite' },
      processes: { type: 'string', default: '1' },
      settle: { type: 'string', default: '120' },
      profile: { type: 'string' },
    },
  });
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  try {
    const result = await runLoadBench({
      clients: Number(values.clients),
      durationSeconds: Number(values.duration),
      engine: values.engine === 'postgres' ? 'postgres' : 'sqlite',
      processes: Number(values.processes),
      settleSeconds: Number(values.settle),
      profileDir: values.profile ?? null,
      log: (line) => console.log(line),
    });
    console.log(formatLoadBench(result));
    if (!result.passed) process.exitCode = 1;
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  }
}
