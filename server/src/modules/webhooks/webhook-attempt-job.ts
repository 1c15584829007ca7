import type { FastifyBaseLogger } from 'fastify';
import pLimit, { type LimitFunction } from 'p-limit';
import type { z } from 'zod';
import { signWebhookPayload } from '../../../../sdk/src/webhook-signature.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/handle.js';
import { defineJob } from '../../jobs/runner.js';
import { nowIso } from '../../lib/ids.js';
import { createAttemptStore, type AttemptContext } from './attempt-store.js';
import * as repo from './deliveries.repo.js';
import { WEBHOOK_ATTEMPT_JOB, attemptJobPayload } from './deliveries.service.js';
import { decryptWebhookSecret } from './webhook-secret.js';
import type { SendResult, WebhookSender } from './webhook-sender.js';

/** What the attempt handler needs. */
export type AttemptDeps = {
  db: Db;
  config: Pick<Config, 'secretKey' | 'webhookRetryScheduleMs'>;
  sender: WebhookSender;
  logger: FastifyBaseLogger;
};

type Attempt = z.infer<typeof attemptJobPayload> & { jobId: string; run: number };
type Runtime = AttemptDeps & {
  store: ReturnType<typeof createAttemptStore>;
  requests: LimitFunction;
};

/** Requests one process has in flight at the same time. */
export const WEBHOOK_CONCURRENCY = 64;

/** The durable job that makes one webhook attempt; running it twice never sends twice. */
export function webhookAttemptJob(deps: AttemptDeps) {
  const runtime: Runtime = {
    ...deps,
    store: createAttemptStore(deps.db),
    requests: pLimit(WEBHOOK_CONCURRENCY),
  };
  return defineJob({
    kind: WEBHOOK_ATTEMPT_JOB,
    payload: attemptJobPayload,
    // Attempts mostly wait on receivers: their own pool keeps slow receivers from delaying
    // e-mails and seals, and lets many run at once (each holds a socket, little memory). On
    // PostgreSQL it holds twice the requests in flight: while one batch of attempts has its
    // requests out, the batch before records its outcomes and the next is claimed and loaded,
    // so the database's round trips overlap the requests instead of alternating with them.
    // SQLite answers on this thread, with nothing to overlap: there the pool is the requests.
    concurrency: (deps.db.engine === 'postgres' ? 2 : 1) * WEBHOOK_CONCURRENCY,
    // Job-level retries only happen when the database failed us mid-handler: retry quickly, the
    // job's run count tells the rerun that an attempt was under way.
    backoffMs: (n) => Math.min(500 * 2 ** (n - 1), 30_000),
    handle: (payload, context) =>
      runAttempt(runtime, { ...payload, jobId: context.job.id, run: context.attempt }),
  });
}

const INTERRUPTED =
  'interrupted: the worker stopped before the response was recorded; the attempt may have reached the receiver';

// 'done' when the job row was completed with the outcome (see JobDefinition.handle).
async function runAttempt(deps: Runtime, job: Attempt): Promise<void | 'done'> {
  const ctx = await deps.store.load({ deliveryId: job.deliveryId, attempt: job.attempt });
  // Gone with its webhook, or the series already ended (2xx, last attempt, deactivation).
  if (!ctx || ctx.status !== 'pending') return;
  // Finished: the next attempt was enqueued in the same transaction, nothing is left to do.
  if (ctx.attempt_finished_at) return;
  // The job's claim, committed before the request, is the attempt's start: a second run of the
  // job means the first one stopped (its lease expired, or the database failed it) after that
  // point. It may have reached the receiver, so it counts as made: sending it again could
  // exceed the three attempts or duplicate attempt N. Its start time died with it unless an
  // older version recorded it: the time it was due stands in.
  if (job.run > 1) {
    const startedAt = ctx.attempt_started_at ?? job.dueAt;
    await conclude(deps, job, ctx.dispatched_at ?? startedAt, startedAt, {
      statusCode: null,
      error: INTERRUPTED,
      durationMs: null,
    });
    return 'done';
  }
  if (ctx.active !== 1) {
    await repo.updatePendingDelivery(deps.db.kysely, ctx.id, {
      status: 'cancelled',
      completed_at: nowIso(),
    });
    return;
  }

  // The attempt starts when its request goes out, once one of the 64 request slots is free.
  const { startedAt, result } = await deps.requests(async () => ({
    startedAt: nowIso(),
    result: await send(deps, ctx, job.attempt),
  }));
  const dispatchedAt = job.attempt === 1 ? startedAt : (ctx.dispatched_at ?? startedAt);
  await conclude(deps, job, dispatchedAt, startedAt, result);
  deps.logger.info(
    {
      deliveryId: ctx.id,
      webhookId: ctx.webhook_id,
      eventId: ctx.event_id,
      attempt: job.attempt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error ?? undefined,
    },
    'webhook attempt',
  );
  return 'done';
}

async function send(deps: Runtime, ctx: AttemptContext, attempt: number): Promise<SendResult> {
  try {
    const secret = decryptWebhookSecret(
      deps.config.secretKey,
      ctx.webhook_id,
      ctx.secret_encrypted,
    );
    // The stored payload string is the envelope's exact bytes: identical on every attempt.
    const body = Buffer.from(ctx.payload, 'utf8');
    return await deps.sender.send({
      url: ctx.url,
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-Service-Signature': signWebhookPayload(secret, body, Math.floor(Date.now() / 1000)),
        'X-Service-Webhook-Attempt': String(attempt),
        'X-Service-Webhook-Event': ctx.event_type,
        'X-Service-Webhook-Id': ctx.event_id,
      },
    });
  } catch (err) {
    // Only signing can throw here (the sender reports failures as results): a secret that no
    // longer decrypts means SECRET_KEY changed; the attempt fails without reaching anyone.
    return { statusCode: null, error: `not sent: ${(err as Error).message}`, durationMs: 0 };
  }
}

/**
 * Records an attempt's outcome and decides what follows: nothing after a 2xx or the last
 * attempt, else the next attempt at its scheduled offset from dispatch start, or at once if
 * this attempt overran that time.
 */
async function conclude(
  deps: Runtime,
  job: Attempt,
  dispatchedAt: string,
  startedAt: string,
  result: { statusCode: number | null; error: string | null; durationMs: number | null },
): Promise<void> {
  const schedule = deps.config.webhookRetryScheduleMs;
  const finishedAt = nowIso();
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const last = job.attempt >= schedule.length;
  const nominal = Date.parse(dispatchedAt) + (schedule[job.attempt] ?? 0);
  await deps.store.conclude({
    jobId: job.jobId,
    row: {
      delivery_id: job.deliveryId,
      attempt: job.attempt,
      scheduled_at: job.dueAt,
      started_at: startedAt,
      finished_at: finishedAt,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      error: result.error,
    },
    final: ok ? 'succeeded' : last ? 'failed' : null,
    nextDueAt:
      ok || last ? null : new Date(Math.max(nominal, Date.parse(finishedAt))).toISOString(),
  });
}
