import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { signWebhookPayload } from '../../../../sdk/src/verify-webhook.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { DbOrTrx } from '../../jobs/queue.js';
import { defineJob } from '../../jobs/runner.js';
import { nowIso } from '../../lib/ids.js';
import * as repo from './deliveries.repo.js';
import { createGroupCommit, type GroupCommit } from './group-commit.js';
import { WEBHOOK_ATTEMPT_JOB, attemptJobPayload, enqueueAttempt } from './deliveries.service.js';
import { decryptWebhookSecret } from './webhook-secret.js';
import type { SendResult, WebhookSender } from './webhook-sender.js';

/** What the attempt handler needs. */
export type AttemptDeps = {
  db: Db;
  config: Pick<Config, 'secretKey' | 'webhookRetryScheduleMs'>;
  sender: WebhookSender;
  logger: FastifyBaseLogger;
};

/** An attempt job's payload, and how to mark its job row done inside our own transaction. */
type Attempt = z.infer<typeof attemptJobPayload> & { completeIn: (trx: DbOrTrx) => Promise<void> };

/** The handler's dependencies plus its group commit. */
type Runtime = AttemptDeps & { commit: GroupCommit };

/** Attempts one process makes at the same time. */
export const WEBHOOK_CONCURRENCY = 64;

/** The durable job that makes one webhook attempt; running it twice never sends twice. */
export function webhookAttemptJob(deps: AttemptDeps) {
  const runtime: Runtime = { ...deps, commit: createGroupCommit(deps.db) };
  return defineJob({
    kind: WEBHOOK_ATTEMPT_JOB,
    payload: attemptJobPayload,
    // Attempts mostly wait on receivers: their own pool keeps slow receivers from delaying
    // e-mails and seals, and lets many run at once (each holds a socket, little memory).
    concurrency: WEBHOOK_CONCURRENCY,
    // Job-level retries only happen when the database failed us mid-handler: retry quickly, the
    // attempt row tells the rerun what already happened.
    backoffMs: (n) => Math.min(500 * 2 ** (n - 1), 30_000),
    handle: (payload, context) =>
      runAttempt(runtime, { ...payload, completeIn: context.completeIn }),
  });
}

const INTERRUPTED =
  'interrupted: the worker stopped before the response was recorded; the attempt may have reached the receiver';

async function runAttempt(deps: Runtime, job: Attempt): Promise<void> {
  const { db } = deps;
  const ctx = await repo.findAttemptContext(db.kysely, job.deliveryId, job.attempt);
  // Gone with its webhook, or the series already ended (2xx, last attempt, deactivation).
  if (!ctx || ctx.status !== 'pending') return;
  if (ctx.attempt_started_at) {
    // Finished: the next attempt was enqueued in the same transaction, nothing is left to do.
    if (ctx.attempt_finished_at) return;
    // Started by a run that died (its lease expired): it may have reached the receiver, so it
    // counts as made. Sending it again would exceed the three attempts or duplicate attempt N.
    await concludeAttempt(deps, job, ctx.dispatched_at ?? ctx.attempt_started_at, {
      statusCode: null,
      error: INTERRUPTED,
      durationMs: null,
    });
    return;
  }
  if (ctx.active !== 1) {
    await repo.updatePendingDelivery(db.kysely, ctx.id, {
      status: 'cancelled',
      completed_at: nowIso(),
    });
    return;
  }

  // Announce the attempt before sending: a crash after this point can never cause a resend.
  const startedAt = nowIso();
  // The delivery's dispatch time (attempt 1's start) is written with attempt 1's outcome: one
  // statement less on the way to the receiver, and the log shows attempt 1's start meanwhile.
  const won = await deps.commit.run((trx) =>
    repo.insertAttemptStart(trx, {
      delivery_id: ctx.id,
      attempt: job.attempt,
      scheduled_at: job.dueAt,
      started_at: startedAt,
    }),
  );
  if (!won) return;
  const dispatchedAt = job.attempt === 1 ? startedAt : (ctx.dispatched_at ?? startedAt);

  let result: SendResult;
  try {
    const secret = decryptWebhookSecret(
      deps.config.secretKey,
      ctx.webhook_id,
      ctx.secret_encrypted,
    );
    // The stored payload string is the envelope's exact bytes: identical on every attempt.
    const body = Buffer.from(ctx.payload, 'utf8');
    result = await deps.sender.send({
      url: ctx.url,
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-Service-Signature': signWebhookPayload(secret, body, Math.floor(Date.now() / 1000)),
        'X-Service-Webhook-Attempt': String(job.attempt),
        'X-Service-Webhook-Event': ctx.event_type,
        'X-Service-Webhook-Id': ctx.event_id,
      },
    });
  } catch (err) {
    // Only signing can throw here (the sender reports failures as results): a secret that no
    // longer decrypts means SECRET_KEY changed; the attempt fails without reaching anyone.
    result = { statusCode: null, error: `not sent: ${(err as Error).message}`, durationMs: 0 };
  }
  await concludeAttempt(deps, job, dispatchedAt, result);
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
}

/**
 * Records an attempt's outcome and decides what follows, in one transaction: the next attempt
 * job exists exactly when this outcome is recorded. The next attempt is due at its scheduled
 * offset from dispatch start, or now if this attempt overran that time.
 */
async function concludeAttempt(
  deps: Runtime,
  job: Attempt,
  dispatchedAt: string,
  result: { statusCode: number | null; error: string | null; durationMs: number | null },
): Promise<void> {
  const schedule = deps.config.webhookRetryScheduleMs;
  const finishedAt = nowIso();
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  await deps.commit.run(async (trx) => {
    const recorded = await repo.recordAttemptResult(trx, {
      delivery_id: job.deliveryId,
      attempt: job.attempt,
      finished_at: finishedAt,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      error: result.error,
    });
    if (!recorded) return;
    // The outcome, what follows it and the job's completion commit together.
    await job.completeIn(trx);
    const last = job.attempt >= schedule.length;
    const dispatch = job.attempt === 1 ? { dispatched_at: dispatchedAt } : {};
    if (ok || last) {
      await repo.updatePendingDelivery(trx, job.deliveryId, {
        ...dispatch,
        status: ok ? 'succeeded' : 'failed',
        attempt_count: job.attempt,
        completed_at: finishedAt,
      });
      return;
    }
    await repo.updatePendingDelivery(trx, job.deliveryId, {
      ...dispatch,
      attempt_count: job.attempt,
    });
    const nominal = Date.parse(dispatchedAt) + schedule[job.attempt];
    const dueAt = new Date(Math.max(nominal, Date.parse(finishedAt))).toISOString();
    await enqueueAttempt(trx, { deliveryId: job.deliveryId, attempt: job.attempt + 1, dueAt });
  });
}
