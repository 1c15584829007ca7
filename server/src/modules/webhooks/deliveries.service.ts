import { z } from 'zod';
import type { Db } from '../../db/handle.js';
import type { EventsTable } from '../../db/schema.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { AppError } from '../../lib/errors.js';
import { enqueueJobs, type NewJob } from '../../jobs/queue.js';
import type { DbOrTrx } from '../../db/handle.js';
import type { JobRunner } from '../../jobs/runner.js';
import { newId, nowIso } from '../../lib/ids.js';
import { requireMembership } from '../tenants/tenants.service.js';
import * as repo from './deliveries.repo.js';
import { findWebhook, findWebhooksForEvent } from './webhooks.repo.js';

/** Job kind of one webhook attempt. */
export const WEBHOOK_ATTEMPT_JOB = 'webhook.attempt';

/** Payload of an attempt job: which attempt of which delivery, and when it is due. */
export const attemptJobPayload = z.object({
  deliveryId: z.string(),
  attempt: z.number().int().min(1),
  dueAt: z.string(),
});

/**
 * Enqueues each attempt (`attempt` of a delivery, to run at `dueAt`) in the caller's
 * transaction, in one statement.
 */
export async function enqueueAttempts(
  trx: DbOrTrx,
  attempts: Array<z.infer<typeof attemptJobPayload>>,
): Promise<void> {
  await enqueueJobs(trx, attempts.map(attemptJob));
}

// The job's own retries are for database trouble inside the handler, not for receivers.
function attemptJob(attempt: z.infer<typeof attemptJobPayload>): NewJob {
  return { kind: WEBHOOK_ATTEMPT_JOB, payload: attempt, runAt: attempt.dueAt, maxAttempts: 10 };
}

// New series, one per webhook: the delivery rows and their first attempts, due now, in two
// statements whatever the number of webhooks.
async function startDeliveries(
  trx: DbOrTrx,
  input: { tenantId: string; eventId: string; webhookIds: string[] },
): Promise<repo.DeliveryRow[]> {
  const now = nowIso();
  const rows = input.webhookIds.map((webhookId): repo.DeliveryRow => ({
    id: newId(),
    tenant_id: input.tenantId,
    webhook_id: webhookId,
    event_id: input.eventId,
    status: 'pending',
    attempt_count: 0,
    created_at: now,
    dispatched_at: null,
    completed_at: null,
  }));
  if (rows.length === 0) return rows;
  await repo.insertDeliveries(trx, rows);
  await enqueueAttempts(
    trx,
    rows.map((row) => ({ deliveryId: row.id, attempt: 1, dueAt: now })),
  );
  return rows;
}

/**
 * Writes one delivery per receiving webhook for a just-recorded event. Runs inside the status
 * change's transaction, so the event and its deliveries exist exactly when the change does;
 * the caller wakes the job runner after the commit. Returns the number of deliveries.
 */
export async function scheduleWebhookDeliveries(
  trx: DbOrTrx,
  event: Pick<EventsTable, 'id' | 'tenant_id' | 'type'>,
): Promise<number> {
  const webhooks = await findWebhooksForEvent(trx, { tenantId: event.tenant_id, type: event.type });
  const rows = await startDeliveries(trx, {
    tenantId: event.tenant_id,
    eventId: event.id,
    webhookIds: webhooks.map((webhook) => webhook.id),
  });
  return rows.length;
}

/** What delivery-log services need. */
export type DeliveryDeps = { db: Db; jobs: JobRunner };

type Caller = { tenantId: string; userId: string };

async function authorizedWebhook(deps: DeliveryDeps, input: Caller & { webhookId: string }) {
  await requireMembership(deps.db.kysely, { ...input, action: 'webhooks.manage' });
  const webhook = await findWebhook(deps.db.kysely, input.tenantId, input.webhookId);
  if (!webhook) throw new AppError('not_found', 'No such webhook.');
  return webhook;
}

/** A delivery with its attempts, as the API shows it. */
export type DeliveryView = ReturnType<typeof presentDelivery>;

function presentDelivery(
  d: repo.DeliveryRow & { event_type: string },
  attempts: repo.AttemptRow[],
) {
  return {
    id: d.id,
    webhookId: d.webhook_id,
    eventId: d.event_id,
    eventType: d.event_type,
    status: d.status,
    createdAt: d.created_at,
    // Written with attempt 1's outcome; while attempt 1 runs, its start is the dispatch time.
    dispatchedAt: d.dispatched_at ?? attempts.find((a) => a.attempt === 1)?.started_at ?? null,
    completedAt: d.completed_at,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      scheduledAt: a.scheduled_at,
      startedAt: a.started_at,
      finishedAt: a.finished_at,
      statusCode: a.status_code,
      durationMs: a.duration_ms,
      error: a.error,
    })),
  };
}

/** A webhook's deliveries, newest first, each with every attempt made so far. */
export async function listWebhookDeliveries(
  deps: DeliveryDeps,
  input: Caller & { webhookId: string; limit: number; cursor?: string },
) {
  const webhook = await authorizedWebhook(deps, input);
  const rows = await repo.listDeliveries(deps.db.kysely, {
    webhookId: webhook.id,
    limit: input.limit + 1,
    before: input.cursor ? decodeCursor(input.cursor) : undefined,
  });
  const page = rows.slice(0, input.limit);
  const attempts = await repo.listAttempts(
    deps.db.kysely,
    page.map((d) => d.id),
  );
  return {
    deliveries: page.map((d) =>
      presentDelivery(
        d,
        attempts.filter((a) => a.delivery_id === d.id),
      ),
    ),
    nextCursor: rows.length > input.limit ? encodeCursor(page[page.length - 1]) : null,
  };
}

/**
 * Starts a fresh series of attempts for an event of the tenant: same event id, same body,
 * attempt numbers from 1 again. Any event of the tenant may be redelivered, including one that
 * happened before the webhook existed.
 */
export async function redeliverEvent(
  deps: DeliveryDeps,
  input: Caller & { webhookId: string; eventId: string },
): Promise<DeliveryView> {
  const webhook = await authorizedWebhook(deps, input);
  const event = await repo.findTenantEvent(deps.db.kysely, input.tenantId, input.eventId);
  if (!event) throw new AppError('not_found', 'No such event in this tenant.');
  if (webhook.active !== 1) {
    throw new AppError('conflict', 'The webhook is inactive; activate it before redelivering.');
  }
  const [row] = await deps.db.kysely.transaction().execute((trx) =>
    startDeliveries(trx, {
      tenantId: input.tenantId,
      eventId: event.id,
      webhookIds: [webhook.id],
    }),
  );
  deps.jobs.wake();
  return presentDelivery({ ...row, event_type: event.type }, []);
}
