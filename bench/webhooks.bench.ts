// Webhook delivery benchmark: `npx tsx bench/webhooks.bench.ts` (one process; SQLite, or
// ENGINE=postgres for a PostgreSQL database: TEST_DATABASE_URL's server, or a throwaway one).
//  (a) Throughput: a backlog of events drained by the service (job runner, attempt rows,
//      signing, SSRF-filtering keep-alive agent) into a receiver answering 200 at once, versus
//      a bare loop posting the same signed bodies with the same HTTP client and the same
//      concurrency to the same receiver, in the same run (goal: service >= 80% of bare on SQLite, >= 60% on PostgreSQL). Each
//      side is timed after an untimed warm-up of WARMUP deliveries (connections, compiled code),
//      after one whole untimed run; the bare loop is timed before and after the service.
//  (b) First-attempt latency: from the status change's commit to the request's arrival at the
//      receiver, one event at a time, p50/p99 (goal: p99 <= 50 ms).
//  (c) Retry punctuality: arrival of attempts 2 and 3 versus dispatch start + schedule, with a
//      receiver answering 500 (goal: <= 100 ms late).
// Every figure is the median over RUNS runs, each on a fresh database. PROFILE=DIR writes a V8
// CPU profile of each run's timed service phase (the backlog draining) and of the bare loop's
// timed pass before it into DIR.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { signWebhookPayload } from '../sdk/src/webhook-signature.js';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/db/database.js';
import { migrateToLatest } from '../server/src/db/migrate.js';
import { newId, nowIso } from '../server/src/lib/ids.js';
import { recordStatusChange } from '../server/src/modules/events/events.service.js';
import { encryptWebhookSecret } from '../server/src/modules/webhooks/webhook-secret.js';
import { WEBHOOK_CONCURRENCY } from '../server/src/modules/webhooks/webhook-attempt-job.js';
import { createWebhookSender } from '../server/src/modules/webhooks/webhook-sender.js';
import { startBenchPostgres } from './support/postgres.js';

const RUNS = Number(process.env.RUNS ?? 5);
const ENGINE = process.env.ENGINE === 'postgres' ? 'postgres' : 'sqlite';
// The goal for the service's deliveries against the bare loop's (issue 53 for PostgreSQL).
const GOAL = ENGINE === 'postgres' ? 60 : 80;
const BACKLOG = Number(process.env.BACKLOG ?? 2000);
const WARMUP = 256; // untimed deliveries before each side is timed
const LATENCY_EVENTS = 200;
const RETRY_EVENTS = 100;
const CONCURRENCY = WEBHOOK_CONCURRENCY; // the service's attempts in flight, used for both
const SCHEDULE = [0, 500, 1500];
const SECRET = 'whsec_benchmark_secret_benchmark_secret_000000';

type Arrival = { at: number; wall: number; id: string; attempt: number };

async function startReceiver(status: () => number) {
  const arrivals: Arrival[] = [];
  let onArrival: (() => void) | null = null;
  const server: Server = createServer((req, res) => {
    const at = performance.now();
    const wall = Date.now();
    req.resume();
    req.on('end', () => {
      arrivals.push({
        at,
        wall,
        id: String(req.headers['x-service-webhook-id']),
        attempt: Number(req.headers['x-service-webhook-attempt']),
      });
      res.writeHead(status()).end();
      onArrival?.();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    until: (predicate: () => boolean) =>
      new Promise<void>((resolve) => {
        if (predicate()) return resolve();
        onArrival = () => {
          if (predicate()) {
            onArrival = null;
            resolve();
          }
        };
      }),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

async function startService(schedule: number[]) {
  // BENCH_DIR=/dev/shm puts the database in memory: fsync becomes free and what remains is the
  // service's CPU cost; the default (the OS temp dir) includes the disk's flush latency.
  const dataDir = mkdtempSync(path.join(process.env.BENCH_DIR ?? tmpdir(), 'signet-bench-'));
  // PostgreSQL with fsync on, as deployed: a commit costs what it costs in production.
  const postgres = ENGINE === 'postgres' ? await startBenchPostgres({ durable: true }) : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: schedule.join(','),
    WEBHOOK_TIMEOUT_MS: '2000',
  });
  const db = openDatabase(config);
  await migrateToLatest(db);
  const { app, deps } = await buildApp({ config, db, logger: false });
  await app.ready();
  const tenantId = newId();
  const now = nowIso();
  await db.kysely
    .insertInto('tenants')
    .values({
      id: tenantId,
      name: 'Bench',
      email_language: 'en',
      invitation_emails: 1,
      signee_events: 0,
      reminder_cooldown_minutes: 60,
      credit_balance: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return {
    config,
    db,
    deps,
    tenantId,
    addWebhook: async (url: string) => {
      const id = newId();
      await db.kysely
        .insertInto('webhooks')
        .values({
          id,
          tenant_id: tenantId,
          url,
          active: 1,
          secret_encrypted: encryptWebhookSecret(config.secretKey, id, SECRET),
          created_at: now,
          updated_at: now,
        })
        .execute();
    },
    // A status change as the documents module makes it: event + deliveries in one transaction.
    change: () =>
      db.kysely.transaction().execute((trx) =>
        recordStatusChange(trx, {
          tenantId,
          documentId: newId(),
          oldStatus: 'draft',
          newStatus: 'in_process',
        }),
      ),
    close: async () => {
      await app.close();
      await db.close();
      await postgres?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function throughputRun() {
  const receiver = await startReceiver(() => 200);
  const service = await startService(SCHEDULE);
  await service.addWebhook(receiver.url);
  // Both sides are timed warm: the service first drains a few events (its connections open, its
  // code compiled), and the bare loop makes one untimed pass below.
  for (let i = 0; i < WARMUP; i++) await service.change();
  service.deps.jobs.start();
  await receiver.until(() => receiver.arrivals.length >= WARMUP);
  await service.deps.jobs.idle();
  await service.deps.jobs.stop();
  const payloads: string[] = [];
  for (let i = 0; i < BACKLOG; i++) payloads.push((await service.change()).payload);

  // The bare loop: same client (sender, agent), same bodies, no database; run with the service's
  // concurrency (the comparison the goal uses) and one at a time (a literal loop), for reference.
  // It is timed just before and just after the service, and the goal compares the service with
  // the mean of the two, so that a change in the machine's load during the run (it is shared)
  // weighs on both sides alike.
  const sender = createWebhookSender({ allowPrivate: true, timeoutMs: 2000 });
  const bareRate = async (concurrency: number, count = payloads.length) => {
    const start = performance.now();
    const cpu = process.cpuUsage();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const body = Buffer.from(payloads[next++], 'utf8');
          await sender.send({
            url: receiver.url,
            body,
            headers: {
              'Content-Type': 'application/json',
              'X-Service-Signature': signWebhookPayload(
                SECRET,
                body,
                Math.floor(Date.now() / 1000),
              ),
              'X-Service-Webhook-Attempt': '1',
              'X-Service-Webhook-Event': 'document.status_changed',
              'X-Service-Webhook-Id': 'bench',
            },
          });
        }
      }),
    );
    return { rate: count / ((performance.now() - start) / 1000), cpu: cpuMicros(cpu) / count };
  };
  await bareRate(CONCURRENCY, WARMUP);
  const bareProfiler = process.env.PROFILE ? await startProfiler() : null;
  const bareBefore = await bareRate(CONCURRENCY);
  await bareProfiler?.stop(process.env.PROFILE!, 'bare');

  const arrived = receiver.arrivals.length;
  const profiler = process.env.PROFILE ? await startProfiler() : null;
  const t = performance.now();
  const cpu = process.cpuUsage();
  service.deps.jobs.start();
  await receiver.until(() => receiver.arrivals.length >= arrived + BACKLOG);
  await service.deps.jobs.idle();
  const serviceSeconds = (performance.now() - t) / 1000;
  const serviceCpu = cpuMicros(cpu) / BACKLOG;
  await profiler?.stop(process.env.PROFILE!, 'service');
  const done = await service.db.kysely
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  if (Number(done.n) !== WARMUP + BACKLOG) throw new Error(`only ${done.n} deliveries succeeded`);
  await service.close();

  const bareAfter = await bareRate(CONCURRENCY);
  const bareSequential = await bareRate(1);
  sender.close();
  await receiver.close();
  return {
    service: BACKLOG / serviceSeconds,
    bare: (bareBefore.rate + bareAfter.rate) / 2,
    bareBefore: bareBefore.rate,
    bareAfter: bareAfter.rate,
    bareSequential: bareSequential.rate,
    serviceCpu,
    bareCpu: (bareBefore.cpu + bareAfter.cpu) / 2,
  };
}

// CPU time (user + system, µs) this process used since `since`: the service, the bare loop and
// the receiver all run here, so it is what each delivery costs, whatever else the machine runs.
function cpuMicros(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

async function startProfiler() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 50 });
  await session.post('Profiler.start');
  return {
    stop: async (dir: string, side: string) => {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        path.join(dir, `webhooks-${side}-${Date.now()}.cpuprofile`),
        JSON.stringify(profile),
      );
    },
  };
}

async function latencyRun() {
  const receiver = await startReceiver(() => 200);
  const service = await startService(SCHEDULE);
  await service.addWebhook(receiver.url);
  service.deps.jobs.start();
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_EVENTS; i++) {
    const event = await service.change();
    const committed = performance.now();
    service.deps.jobs.wake();
    await receiver.until(() => receiver.arrivals.some((a) => a.id === event.id));
    latencies.push(receiver.arrivals.find((a) => a.id === event.id)!.at - committed);
    await new Promise((r) => setTimeout(r, 5));
  }
  await service.close();
  await receiver.close();
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function retryRun() {
  const receiver = await startReceiver(() => 500);
  const service = await startService(SCHEDULE);
  await service.addWebhook(receiver.url);
  service.deps.jobs.start();
  for (let i = 0; i < RETRY_EVENTS; i++) {
    await service.change();
    service.deps.jobs.wake();
    await new Promise((r) => setTimeout(r, 7));
  }
  await receiver.until(() => receiver.arrivals.length >= RETRY_EVENTS * 3);
  await service.deps.jobs.idle();
  const rows = await service.db.kysely
    .selectFrom('webhook_deliveries as d')
    .select(['d.event_id', 'd.dispatched_at'])
    .execute();
  const dispatch = new Map(rows.map((r) => [r.event_id, Date.parse(r.dispatched_at!)]));
  const late = { 2: [] as number[], 3: [] as number[] };
  for (const a of receiver.arrivals) {
    if (a.attempt === 2 || a.attempt === 3) {
      late[a.attempt].push(a.wall - (dispatch.get(a.id)! + SCHEDULE[a.attempt - 1]));
    }
  }
  await service.close();
  await receiver.close();
  return {
    attempt2: {
      p50: percentile(late[2], 50),
      p99: percentile(late[2], 99),
      max: Math.max(...late[2]),
    },
    attempt3: {
      p50: percentile(late[3], 50),
      p99: percentile(late[3], 99),
      max: Math.max(...late[3]),
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const median = (values: number[]) => percentile(values, 50);
const f = (n: number) => n.toFixed(1);

const throughput = [];
const latency = [];
const retries = [];
// ONLY=a|b|c runs one part (quicker when working on it) and prints its figures as JSON, or,
// with REPORT=1, as the report's lines for that part.
const only = process.env.ONLY;
// One untimed throughput run first: the first run in a process found the service's code still
// being compiled and measured it a third slower than the following ones, whatever the warm-up.
if (!only || only === 'a') await throughputRun();
for (let run = 0; run < RUNS; run++) {
  if (!only || only === 'a') throughput.push(await throughputRun());
  if (!only || only === 'b') latency.push(await latencyRun());
  if (!only || only === 'c') retries.push(await retryRun());
  process.stderr.write(`run ${run + 1}/${RUNS} done\n`);
}
if (only && !process.env.REPORT) {
  console.log(JSON.stringify({ throughput, latency, retries }));
  process.exit(0);
}
const svc = median(throughput.map((r) => r.service));
const bare = median(throughput.map((r) => r.bare));
const ratios = throughput.map((r) => r.service / r.bare);
const ratio = median(ratios);
console.log(
  `Webhook benchmark (${ENGINE === 'postgres' ? 'PostgreSQL' : 'SQLite'}, medians of ${RUNS} runs)`,
);
console.log(`(a) throughput, backlog of ${BACKLOG}, ${CONCURRENCY} in flight`);
console.log(`    service   ${f(svc)} deliveries/s`);
console.log(
  `    bare loop ${f(bare)} posts/s (${CONCURRENCY} in flight; mean of the passes before and after the service)`,
);
console.log(
  `    ratio     ${(ratio * 100).toFixed(1)}% (runs ${f(Math.min(...ratios) * 100)}–${f(Math.max(...ratios) * 100)}%) (goal >= ${GOAL}%)`,
);
console.log(
  `    CPU per delivery: service ${f(median(throughput.map((r) => r.serviceCpu)))} µs, bare loop ${f(median(throughput.map((r) => r.bareCpu)))} µs (this process: service or bare loop, client and receiver)`,
);
const seq = median(throughput.map((r) => r.bareSequential));
const seqRatio = median(throughput.map((r) => r.service / r.bareSequential));
console.log(
  `    bare loop one at a time ${f(seq)} posts/s: service at ${(seqRatio * 100).toFixed(0)}%`,
);
if (latency.length) {
  console.log(`(b) first attempt after commit, ${LATENCY_EVENTS} events`);
  console.log(
    `    p50 ${f(median(latency.map((l) => l.p50)))} ms, p99 ${f(median(latency.map((l) => l.p99)))} ms (goal p99 <= 50 ms)`,
  );
}
if (retries.length) {
  console.log(
    `(c) lateness vs schedule ${SCHEDULE.join('/')} ms, ${RETRY_EVENTS} events failing 3 times`,
  );
  for (const n of [2, 3] as const) {
    const key = n === 2 ? 'attempt2' : 'attempt3';
    console.log(
      `    attempt ${n}: p50 ${f(median(retries.map((r) => r[key].p50)))} ms, p99 ${f(median(retries.map((r) => r[key].p99)))} ms, max ${f(median(retries.map((r) => r[key].max)))} ms (goal <= 100 ms)`,
    );
  }
}
process.exit(0);
