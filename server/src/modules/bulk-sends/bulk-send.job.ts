import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Db, DbOrTrx } from '../../db/handle.js';
import { enqueueJob } from '../../jobs/queue.js';
import { defineJob } from '../../jobs/runner.js';
import { AppError, validationError } from '../../lib/errors.js';
import { nowIso } from '../../lib/ids.js';
import type { RequestOrigin } from '../documents/audit.repo.js';
import { sendDraft } from '../documents/sending.service.js';
import { recordOptInEvent } from '../events/opt-in-events.js';
import { quotaDay } from '../mail/mail.service.js';
import { decodeFields, type FieldRow } from '../fields/fields.repo.js';
import {
  createFromTemplateInTrx,
  type TemplateSource,
} from '../templates/from-template.service.js';
import { prefillValues } from '../templates/prefill.js';
import { rolesOf } from '../templates/templates.repo.js';
import { creditsFor, takesTurn } from '../documents/signee-roles.js';
import { changeCredits, findTenant } from '../tenants/tenants.repo.js';
import type { BulkRowInput } from './bulk-rows.js';
import * as repo from './bulk-sends.repo.js';

/** The job kind that creates a bulk send's rows, one slice at a time. */
export const BULK_SEND_JOB = 'bulk_send.run';
/** Attempts of one slice before its job is given up (each row is still created once). */
export const BULK_SEND_JOB_ATTEMPTS = 20;

// Rows created in one transaction; and how long a run goes on before it hands over to the
// next job, so that any process can take the next slice and other kinds get their turn.
const ROWS_PER_TRANSACTION = 50;
const SLICE_MS = 2000;
// Rows created between two turns of the event loop inside a transaction: on SQLite statements
// run without yielding, and 50 documents would hold /healthz for tens of milliseconds.
const ROWS_PER_TURN = 10;

/** What a bulk send's run needs. */
export type BulkRunDeps = {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'secretKey' | 'mailDailyLimitPerTenant'>;
  wakeJobs: () => void;
};

/** One run of a bulk send: its row, what its documents are made of, and its job's claim. */
type Run = {
  bulk: repo.BulkSendRow;
  template: TemplateSource;
  fields: FieldRow[];
  /** Credits each row's document takes: one per signer role. */
  roles: number;
  /** Invitations each row e-mails when it is sent: its first signing wave. */
  wave: number;
  origin?: RequestOrigin;
  job: { id: string; attempts: number };
};

type PendingRow = { row_number: number; input: string | null };

// Another process claimed this run's job after its lease expired: the run stops, and its
// transaction in progress rolls back.
class TakenOver extends Error {}

/** The durable job that creates a bulk send's rows in order, one slice per run. */
export function bulkSendJob(deps: BulkRunDeps) {
  return defineJob({
    kind: BULK_SEND_JOB,
    payload: z.object({ bulkSendId: z.string() }),
    // Its own two slots: a bulk send never takes the slots of e-mails and seals.
    concurrency: 2,
    backoffMs: (attempt) => Math.min(1000 * 2 ** (attempt - 1), 60_000),
    handle: ({ bulkSendId }, { job }) =>
      runSlice(deps, bulkSendId, { id: job.id, attempts: job.attempts }),
  });
}

/**
 * Invitations a row's document sends at once: every role with a turn (cc recipients get none),
 * or the first wave of an order.
 */
function firstWave(template: TemplateSource): number {
  const roles = rolesOf(template).filter(takesTurn);
  if (template.signing_order_enabled !== 1) return roles.length;
  const orders = roles.map((r) => r.signingOrder ?? 1);
  const first = Math.min(...orders);
  return orders.filter((o) => o === first).length;
}

// Creates rows for up to SLICE_MS; the slice's last transaction hands the job over.
async function runSlice(
  deps: BulkRunDeps,
  bulkSendId: string,
  job: Run['job'],
): Promise<void | 'done'> {
  const bulk = await repo.findBulkSend(deps.db.kysely, bulkSendId);
  if (!bulk || bulk.status === 'completed') return;
  if (bulk.status === 'queued') {
    await repo.updateBulkSend(
      deps.db.kysely,
      bulk.id,
      { status: 'running', updated_at: nowIso() },
      { status: 'queued' },
    );
  }
  const template = JSON.parse(bulk.template_snapshot) as TemplateSource;
  const run: Run = {
    bulk,
    template,
    // Decoded once: prefill.ts keeps its label index per fields array.
    fields: decodeFields(template.fields),
    roles: creditsFor(rolesOf(template)),
    wave: firstWave(template),
    origin: bulk.origin ? (JSON.parse(bulk.origin) as RequestOrigin) : undefined,
    job,
  };
  const started = Date.now();
  try {
    for (;;) {
      if (await runStep(deps, run, Date.now() - started >= SLICE_MS)) return 'done';
      await nextTurn();
    }
  } catch (err) {
    if (err instanceof TakenOver) return 'done';
    throw err;
  }
}

// One transaction's worth of rows; true when the run ended (handed over, waiting, completed).
async function runStep(deps: BulkRunDeps, run: Run, last: boolean): Promise<boolean> {
  const { db } = deps;
  const now = nowIso();
  const take = await rowsWithinQuota(deps, run);
  const pending = await repo.nextPendingRows(db.kysely, run.bulk.id, Math.max(take, 1));
  if (pending.length === 0) {
    return db.kysely.transaction().execute((trx) => complete(trx, run, now));
  }
  if (take === 0) {
    const until = nextUtcMidnight();
    await db.kysely.transaction().execute(async (trx) => {
      await repo.updateBulkSend(trx, run.bulk.id, { waiting_until: until, updated_at: now });
      await handOver(trx, run, until);
    });
    return true;
  }
  try {
    await db.kysely.transaction().execute(async (trx) => {
      await createRows(deps, trx, run, pending, now);
      if (last) await handOver(trx, run);
    });
    deps.wakeJobs();
    return last;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // Another send of the tenant took the quota meanwhile: the next step reads it again.
    if (err.code === 'mail_quota_exceeded') return false;
  }
  // A row the group could not take: each row alone, to fail only the one at fault.
  for (const row of pending) {
    try {
      await db.kysely.transaction().execute((trx) => createRows(deps, trx, run, [row], now));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'mail_quota_exceeded') break;
      await db.kysely.transaction().execute(async (trx) => {
        const failed = await repo.failRow(trx, {
          bulkSendId: run.bulk.id,
          row: row.row_number,
          error: describeError(err),
          at: now,
        });
        if (failed) await repo.addCounts(trx, run.bulk.id, { created: 0, failed: 1, at: now });
      });
    }
  }
  deps.wakeJobs();
  return false;
}

/** How many rows may go now: all of a group, or those whose invitations fit today's quota. */
async function rowsWithinQuota(deps: BulkRunDeps, run: Run): Promise<number> {
  if (run.wave === 0) return ROWS_PER_TRANSACTION;
  const tenant = await findTenant(deps.db.kysely, run.bulk.tenant_id);
  // Links only: no e-mail, no quota.
  if (!tenant || tenant.invitation_emails !== 1) return ROWS_PER_TRANSACTION;
  const sent = await repo.tenantMailToday(deps.db.kysely, tenant.id, quotaDay());
  const left = deps.config.mailDailyLimitPerTenant - sent;
  return Math.max(0, Math.min(ROWS_PER_TRANSACTION, Math.floor(left / run.wave)));
}

/**
 * Creates and sends the rows this transaction claims (compare-and-set: a row created by
 * another run is skipped), with the credits reserved at intake; invitations are queued.
 */
async function createRows(
  deps: BulkRunDeps,
  trx: DbOrTrx,
  run: Run,
  rows: PendingRow[],
  now: string,
) {
  const { bulk } = run;
  const claimed = await repo.claimRows(trx, {
    bulkSendId: bulk.id,
    rowNumbers: rows.map((r) => r.row_number),
    at: now,
  });
  const actor = `user:${bulk.user_id}`;
  const made: Array<{ row: number; documentId: string }> = [];
  for (const row of rows) {
    if (!claimed.has(row.row_number)) continue;
    const input = JSON.parse(row.input!) as BulkRowInput;
    // Checked at intake against the same snapshot; checked again, as any input is.
    const prefill = prefillValues(run.fields, input.prefill);
    if (prefill.errors.length > 0) throw validationError(prefill.errors);
    const created = await createFromTemplateInTrx(trx, {
      template: run.template,
      userId: bulk.user_id,
      signees: input.signees,
      values: prefill.values,
      source: 'bulk_send',
      externalId: input.externalId,
      actor,
      origin: run.origin,
    });
    await sendDraft(trx, deps, {
      document: created.document,
      signees: created.signees,
      senderName: bulk.sender_name,
      actor,
      origin: run.origin,
      deliverInRequest: false,
      credits: 'reserved',
    });
    made.push({ row: row.row_number, documentId: created.document.id });
    if (made.length % ROWS_PER_TURN === 0) await nextTurn();
  }
  await repo.setDocumentIds(trx, bulk.id, made);
  await repo.addCounts(trx, bulk.id, { created: made.length, failed: 0, at: now });
  if (bulk.waiting_until !== null) {
    await repo.updateBulkSend(trx, bulk.id, { waiting_until: null });
    bulk.waiting_until = null;
  }
}

/**
 * No row left: `completed`, the counts from the rows themselves, and the credits that rows
 * which failed did not use refunded in one ledger line. True (the run ended).
 */
async function complete(trx: DbOrTrx, run: Run, now: string): Promise<boolean> {
  const { bulk } = run;
  const counts = await repo.countRows(trx, bulk.id);
  if (counts.pending > 0) return false;
  const done = await repo.updateBulkSend(
    trx,
    bulk.id,
    {
      status: 'completed',
      created: counts.created,
      failed: counts.failed,
      waiting_until: null,
      finished_at: now,
      updated_at: now,
    },
    { status: 'not completed' },
  );
  // Completed by another run (a second chain of jobs): only this run's job is left to end.
  if (done === 0) {
    if (!(await repo.deleteOwnJob(trx, run.job))) throw new TakenOver();
    return true;
  }
  // Once: only the run whose update completed it gets here. A finishing job wakes the runner.
  await recordOptInEvent(trx, {
    tenantId: bulk.tenant_id,
    type: 'bulk_send.completed',
    data: {
      id: bulk.id,
      templateId: bulk.template_id,
      total: bulk.total,
      created: counts.created,
      failed: counts.failed,
    },
    at: now,
  });
  const refund = bulk.credits_reserved - counts.created * run.roles;
  if (refund > 0) {
    await changeCredits(trx, {
      tenantId: bulk.tenant_id,
      delta: refund,
      reason: 'bulk-send refund',
      reference: bulk.id,
    });
  }
  if (!(await repo.deleteOwnJob(trx, run.job))) throw new TakenOver();
  return true;
}

/** Ends this run's job and enqueues the next one (now, or at `runAt`), in the caller's transaction. */
async function handOver(trx: DbOrTrx, run: Run, runAt?: string) {
  if (!(await repo.deleteOwnJob(trx, run.job))) throw new TakenOver();
  await enqueueJob(trx, {
    kind: BULK_SEND_JOB,
    payload: { bulkSendId: run.bulk.id },
    maxAttempts: BULK_SEND_JOB_ATTEMPTS,
    runAt,
  });
}

/** The next 00:00 UTC, when the daily mail quota starts again. */
function nextUtcMidnight(): string {
  const next = new Date();
  next.setUTCHours(24, 0, 0, 0);
  return next.toISOString();
}

/** A row's failure as the rows route reports it: the problem's detail and its fields. */
function describeError(err: AppError): string {
  const fields = (err.errors ?? []).map((e) => `${e.path}: ${e.message}`).join('; ');
  return (fields ? `${err.message} ${fields}` : err.message).slice(0, 2000);
}
