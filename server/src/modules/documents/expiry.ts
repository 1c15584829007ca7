import { z } from 'zod';
import type { Db, DbOrTrx } from '../../db/handle.js';
import { enqueueJob } from '../../jobs/queue.js';
import { defineJob } from '../../jobs/runner.js';
import { validationError } from '../../lib/errors.js';
import { nowIso } from '../../lib/ids.js';
import { queueCancelNotices } from './after-signing.js';
import * as repo from './documents.repo.js';
import { PAST_DEADLINE } from './documents.schemas.js';
import { moveDocument } from './lifecycle.js';

/** The job that keeps a document's deadline: due at `expires_at`, one per deadline set. */
export const EXPIRE_JOB = 'document.expire';

const DAY_MS = 86_400_000;

/**
 * The deadline a document gets when it is sent: its own `expiresAt`, else the tenant's
 * `expiryDays` from now, else none. A deadline already past refuses the send (422).
 */
export function deadlineAtSend(
  document: Pick<repo.DocumentRow, 'expires_at'>,
  tenant: { expiry_days: number | null } | undefined,
  now: string,
): string | null {
  if (document.expires_at) {
    if (document.expires_at <= now) throw pastDeadline();
    return document.expires_at;
  }
  const days = tenant?.expiry_days;
  return days ? new Date(Date.parse(now) + days * DAY_MS).toISOString() : null;
}

// The 422 of a deadline that passed between the draft's creation and its sending.
function pastDeadline() {
  return validationError([{ path: 'expiresAt', message: PAST_DEADLINE }]);
}

/**
 * Schedules the deadline of a document in process, in the caller's transaction. A deadline
 * moved later or earlier gets a new job; the old one finds the document's `expires_at` no
 * longer due (or the document no longer in process) and does nothing.
 */
export async function scheduleExpiry(trx: DbOrTrx, documentId: string, expiresAt: string) {
  await enqueueJob(trx, { kind: EXPIRE_JOB, payload: { documentId }, runAt: expiresAt });
}

/**
 * Cancels a document whose deadline has passed while it is in process: `cancelled` with
 * `cancelReason: "expired"`, the audit entry `expired`, the status-change event, and the
 * cancel notice (worded for an expiry) to every signee who held a link. Once: the move is a
 * compare-and-set of the status, so a second run, a second process or a sign at the same
 * moment finds it moved.
 */
export async function expireDocument(
  db: Db,
  documentId: string,
  publicUrl: string,
): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    const document = await repo.findDocument(trx, documentId);
    const now = nowIso();
    if (!document?.expires_at || document.expires_at > now) return false;
    const moved = await moveDocument(trx, {
      document,
      move: 'expire',
      at: now,
      set: { cancel_reason: 'expired' },
      by: { actor: 'system', details: { expiresAt: document.expires_at } },
    });
    if (!moved) return false;
    await queueCancelNotices(trx, {
      document,
      signees: await repo.listSignees(trx, document.id),
      reason: null,
      expired: true,
      publicUrl,
    });
    return true;
  });
}

/** The durable expiry job. */
export function expireJob(deps: { db: Db; publicUrl: string; wakeJobs: () => void }) {
  return defineJob({
    kind: EXPIRE_JOB,
    payload: z.object({ documentId: z.string() }),
    handle: async ({ documentId }) => {
      if (await expireDocument(deps.db, documentId, deps.publicUrl)) deps.wakeJobs();
    },
  });
}
