import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../db/handle.js';
import { refreshDirectReads } from '../db/prepared.js';
import type { JobsTable } from '../db/schema.js';
import { isoIn, nowIso } from '../lib/ids.js';
import { createClaims, type Heads } from './claims.js';
import { createDoneBatcher } from './done-batcher.js';

/** What a job handler receives besides its payload. */
export type JobContext = { job: JobsTable; attempt: number };

/** A kind of durable job: its payload schema and a handler that is safe to run twice. */
export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  kind: string;
  payload: S;
  /** Delay before retry number `attempt` (1-based) after a failure. */
  backoffMs?: (attempt: number) => number;
  /**
   * Slots of this kind's own pool. Kinds without one share the runner's default pool; a kind
   * that mostly waits on remote servers (webhooks) gets its own, so its slow receivers never
   * hold up e-mails or seals, and it can run many at once without letting CPU-heavy kinds do so.
   */
  concurrency?: number;
  /**
   * Runs the job. Returning 'done' says the handler already deleted its job row inside its own
   * transaction (with the work's outcome, so both commit together); the runner then writes
   * nothing more for it.
   */
  handle: (payload: z.infer<S>, context: JobContext) => Promise<void | 'done'>;
};

/** Declares a job kind with its payload type inferred from the schema. */
export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

/**
 * A set of job kinds sharing `size` slots; `waitingSince` is when a busy pool first put off
 * claiming for its few free slots (see BATCH_WAIT_MS).
 */
type Pool = {
  kinds: string[];
  size: number;
  running: Set<Promise<void>>;
  waitingSince: number | null;
};

/** The worker loop of one process. */
export type JobRunner = {
  start: () => void;
  /** Look for due jobs now (called after a commit that enqueued one). */
  wake: () => void;
  /** Stop claiming and wait for running jobs to finish. */
  stop: () => Promise<void>;
  /** Resolves when no job is due or running (tests and CLI use it). */
  idle: () => Promise<void>;
  /** True while this process runs jobs: started, and not stopped. */
  started: () => boolean;
};

// A claim lasts LEASE_MS and is renewed while the handler runs, so a dead worker's job is taken
// over within LEASE_MS however long the job itself takes.
const LEASE_MS = 30_000;
const HEARTBEAT_MS = 10_000;

// A busy pool with fewer than a quarter of its slots free waits up to BATCH_WAIT_MS for more to
// free before claiming. Without it a pool under load settles into claiming a few jobs per pass
// (each pass claiming what the last small batch freed), and every pass, claim and commit costs
// the same for 3 jobs as for 60. An idle pool claims at once, so a lone job is never delayed.
const BATCH_WAIT_MS = 20;

const defaultBackoff = (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 3_600_000);

/**
 * Claims due jobs with a lease and runs them. A timer is set to the next due row so a job
 * scheduled for 5 s runs at 5 s; a poll bounds how late we see rows other processes add.
 */
export function createJobRunner(options: {
  db: Db;
  definitions: JobDefinition[];
  logger: FastifyBaseLogger;
  concurrency?: number;
  pollMs?: number;
}): JobRunner {
  const { db, logger } = options;
  const byKind = new Map(options.definitions.map((d) => [d.kind, d]));
  const pollMs = options.pollMs ?? 1000;
  const pools: Pool[] = [
    ...options.definitions
      .filter((d) => d.concurrency)
      .map((d) => ({
        kinds: [d.kind],
        size: d.concurrency!,
        running: new Set<Promise<void>>(),
        waitingSince: null,
      })),
    {
      kinds: options.definitions.filter((d) => !d.concurrency).map((d) => d.kind),
      size: options.concurrency ?? 16,
      running: new Set<Promise<void>>(),
      waitingSince: null,
    },
  ].filter((p) => p.kinds.length > 0);
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;
  let looping = false;
  let again = false;
  // The pass in progress, if any: stop() waits for it so no query runs after the database closes.
  let pass: Promise<void> = Promise.resolve();
  let idleWaiters: Array<() => void> = [];

  const claims = createClaims(db, LEASE_MS);
  const markDone = createDoneBatcher(db);

  async function finish(job: JobsTable, error: unknown) {
    const definition = byKind.get(job.kind);
    const now = nowIso();
    if (error === null) {
      await markDone(job.id);
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    const last = job.attempts >= job.max_attempts || !definition;
    const delay = (definition?.backoffMs ?? defaultBackoff)(job.attempts);
    await db.kysely
      .updateTable('jobs')
      .set({
        status: last ? 'failed' : 'pending',
        run_at: last ? job.run_at : isoIn(delay),
        lease_until: null,
        last_error: message.slice(0, 2000),
        updated_at: now,
      })
      .where('id', '=', job.id)
      .execute();
    logger.warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, err: error }, 'job failed');
  }

  async function run(job: JobsTable) {
    const definition = byKind.get(job.kind);
    let error: unknown = null;
    let completed = false;
    const heartbeat = setInterval(() => {
      db.kysely
        .updateTable('jobs')
        .set({ lease_until: isoIn(LEASE_MS) })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .execute()
        .catch((err) => logger.warn({ jobId: job.id, err }, 'lease renewal failed'));
    }, HEARTBEAT_MS);
    try {
      if (!definition) throw new Error(`no handler for job kind ${job.kind}`);
      const payload = definition.payload.parse(JSON.parse(job.payload));
      completed = (await definition.handle(payload, { job, attempt: job.attempts })) === 'done';
    } catch (err) {
      error = err ?? new Error('job failed');
    } finally {
      clearInterval(heartbeat);
    }
    if (completed) return;
    try {
      await finish(job, error);
    } catch (err) {
      // The lease will expire and another pass will run the job again: handlers are idempotent.
      logger.error({ jobId: job.id, err }, 'could not record job result');
    }
  }

  // Only the pools with a free slot that claim at once count: a full pool's due jobs wait for a
  // slot, and a finishing job wakes the loop, so they must not make the timer fire at once (a
  // busy loop); a pool that put off claiming claims by waitUntil. The heads this pass read stay
  // true for the kinds of the pools that claimed nothing (a change since would have set `again`).
  async function nextDueDelay(open: Pool[], heads: Heads, claimed: Set<Pool>): Promise<number> {
    const kinds = open.flatMap((p) => p.kinds);
    const stale = open.filter((p) => claimed.has(p)).flatMap((p) => p.kinds);
    const known: Heads = new Map([...heads, ...(await claims.heads(stale))]);
    const soonest = await claims.nextDueAt(kinds, known);
    if (soonest === null) return pollMs;
    return Math.max(0, Math.min(pollMs, soonest - Date.now()));
  }

  function loop(): Promise<void> {
    if (looping) {
      again = true;
      return pass;
    }
    looping = true;
    pass = runPass();
    return pass;
  }

  async function runPass() {
    let delay = pollMs;
    // The soonest moment a pool that put off claiming must claim anyway.
    let waitUntil = Infinity;
    // The claims' reads answer from memory while nothing was committed: start a new snapshot so
    // this pass sees what other processes committed since the last one.
    refreshDirectReads(db.kysely);
    try {
      // The pools that may claim in this pass: a free slot, and not putting off claiming.
      let ready: Pool[] = [];
      let heads: Heads = new Map();
      const claimed = new Set<Pool>();
      do {
        again = false;
        ready = [];
        for (const pool of pools) {
          const free = pool.size - pool.running.size;
          if (free <= 0 || stopped) continue;
          if (pool.running.size > 0 && free * 4 < pool.size) {
            const now = Date.now();
            pool.waitingSince ??= now;
            if (now - pool.waitingSince < BATCH_WAIT_MS) {
              waitUntil = Math.min(waitUntil, pool.waitingSince + BATCH_WAIT_MS);
              continue;
            }
          }
          pool.waitingSince = null;
          ready.push(pool);
        }
        // Every ready pool's kinds are read at once (one statement on PostgreSQL), then each
        // pool claims from what was read.
        heads = await claims.heads(ready.flatMap((p) => p.kinds));
        claimed.clear();
        for (const pool of ready) {
          if (stopped) break;
          const jobs = await claims.claim(pool.kinds, pool.size - pool.running.size, heads);
          if (jobs.length > 0) claimed.add(pool);
          for (const job of jobs) {
            const p = run(job).finally(() => {
              running.delete(p);
              pool.running.delete(p);
              if (!stopped) loopSoon();
            });
            running.add(p);
            pool.running.add(p);
          }
        }
      } while (again && !stopped);
      const open = ready.filter((p) => p.running.size < p.size);
      if (!stopped) delay = await nextDueDelay(open, heads, claimed);
      if (waitUntil !== Infinity) delay = Math.max(0, Math.min(delay, waitUntil - Date.now()));
      // A wake-up while nextDueDelay was reading (a job finished, one was enqueued) may concern
      // a row that read did not see: pass again at once rather than sleep on a stale answer.
      if (again) delay = 0;
    } catch (err) {
      logger.error({ err }, 'job runner pass failed');
    } finally {
      looping = false;
    }
    if (stopped) return;
    if (running.size === 0 && delay > 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach((w) => w());
    }
    schedule(delay);
  }

  // Jobs finishing together (their results are committed in one batch) free their slots in
  // the same turn: one pass then claims for all of them, instead of one claim per job.
  let loopQueued = false;
  function loopSoon() {
    if (loopQueued) return;
    loopQueued = true;
    setImmediate(() => {
      loopQueued = false;
      void loop();
    });
  }

  function schedule(delay: number) {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void loop(), delay);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      void loop();
    },
    wake() {
      if (!stopped) void loop();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await pass;
      await Promise.allSettled([...running]);
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        if (!stopped) void loop();
      });
    },
    started: () => !stopped,
  };
}
