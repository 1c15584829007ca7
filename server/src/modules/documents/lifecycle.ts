import type { DbOrTrx } from '../../db/handle.js';
import { enqueueJob } from '../../jobs/queue.js';
import { recordStatusChange } from '../events/events.service.js';
import { SEAL_JOB } from '../sealing/seal-types.js';
import { recordAudit, type AuditAction, type RequestOrigin } from './audit.repo.js';
import * as repo from './documents.repo.js';

/** A document's status. */
export type DocumentStatus = repo.DocumentRow['status'];
/** A signee's status. */
export type SigneeStatus = repo.SigneeRow['status'];

type Move<S> = {
  from: S;
  to: S;
  /** The audit entry the move writes; null when another step of the same change writes it. */
  audit: AuditAction | null;
};

/**
 * Every move of a document between statuses. Each one emits `document.status_changed`; the
 * specification counts nothing else as a document status change.
 */
export const DOCUMENT_MOVES = {
  /** Send-for-signing. */
  send: { from: 'draft', to: 'in_process', audit: 'sent' },
  /** The last required signature; also enqueues the seal job. */
  complete: { from: 'in_process', to: 'pending_seal', audit: null },
  /** The seal job stored the sealed PDF. */
  seal: { from: 'pending_seal', to: 'signed', audit: 'sealed' },
  /**
   * The seal job's last attempt could not seal anything (not even at a lower level or with the
   * original attached): visible, with a way out, rather than `pending_seal` for ever.
   */
  failSeal: { from: 'pending_seal', to: 'seal_failed', audit: 'seal failed' },
  /** Someone asked to seal again (API, dashboard or CLI); also enqueues the seal job. */
  retrySeal: { from: 'seal_failed', to: 'pending_seal', audit: 'seal retried' },
  /** A signee declined (their own move writes the audit entry). */
  decline: { from: 'in_process', to: 'declined', audit: null },
  /** The sender cancelled. */
  cancel: { from: 'in_process', to: 'cancelled', audit: 'cancelled' },
  /** Its deadline passed (expiry.ts): cancelled, with `cancel_reason` `expired`. */
  expire: { from: 'in_process', to: 'cancelled', audit: 'expired' },
} as const satisfies Record<string, Move<DocumentStatus>>;

/** Every move of a signee; each emits `signee.status_changed` (delivered to opted-in tenants). */
export const SIGNEE_MOVES = {
  sign: { from: 'pending', to: 'signed', audit: 'signed' },
  /**
   * An approver approves (decisions §12): the same status as a signature (the signee statuses
   * are the specification's three), the same event, an audit entry of its own.
   */
  approve: { from: 'pending', to: 'signed', audit: 'approved' },
  decline: { from: 'pending', to: 'declined', audit: 'declined' },
} as const satisfies Record<string, Move<SigneeStatus>>;

/** Name of a document move. */
export type DocumentMove = keyof typeof DOCUMENT_MOVES;
/** Name of a signee move. */
export type SigneeMove = keyof typeof SIGNEE_MOVES;

/**
 * What a move needs of its document: its ids, and what its events carry. Callers hold the row
 * read (locked, where it matters) in the same transaction, so no further read is needed.
 */
export type EventDocument = Pick<repo.DocumentRow, 'id' | 'tenant_id' | 'external_id' | 'metadata'>;

/** Who made a change and from where, for the audit trail. */
export type ChangeBy = {
  /** `user:<id>`, `signee:<id>` or `system`. */
  actor: string;
  origin?: RequestOrigin;
  details?: Record<string, unknown>;
};

/**
 * Attempts of one seal job (seal.job.ts's backoff: 5 s doubling to 10 min, about 2.5 h in all);
 * the last one seals at whatever level the outside services allow.
 */
export const SEAL_JOB_ATTEMPTS = 20;

/** Signing links work only while the document is in process. */
export function isOpenForSigning(status: DocumentStatus): boolean {
  return status === 'in_process';
}

/**
 * A document being signed or sealed cannot be deleted (cancel it first); one whose seal failed
 * can, by a sender who would rather start again than retry.
 */
export function isDeletable(status: DocumentStatus): boolean {
  return status !== 'in_process' && status !== 'pending_seal';
}

/**
 * Performs a document move inside the caller's transaction: compare-and-set of the status (with
 * `set`), the status-change event with its webhook deliveries, the audit entry, and the move's
 * own follow-up (the seal job). False, with nothing written, when the document is no longer in
 * the move's `from` status; the caller decides what that means.
 */
export async function moveDocument(
  trx: DbOrTrx,
  input: {
    document: EventDocument;
    move: DocumentMove;
    at: string;
    by: ChangeBy;
    set?: Partial<repo.DocumentRow>;
    signeeId?: string;
  },
): Promise<boolean> {
  const { from, to, audit } = DOCUMENT_MOVES[input.move];
  const { id, tenant_id: tenantId, external_id: externalId, metadata } = input.document;
  const moved = await repo.transitionDocument(trx, {
    documentId: id,
    from: [from],
    to,
    at: input.at,
    // The home counts' "completed in the last 7 days" and the listing's completedSince.
    set: to === 'signed' ? { ...input.set, completed_at: input.at } : input.set,
  });
  if (!moved) return false;
  await recordStatusChange(trx, {
    tenantId,
    documentId: id,
    oldStatus: from,
    newStatus: to,
    changedAt: input.at,
    externalId,
    metadata,
  });
  if (audit) {
    await recordAudit(trx, {
      documentId: id,
      tenantId,
      action: audit,
      ...input.by,
      signeeId: input.signeeId,
      at: input.at,
    });
  }
  if (input.move === 'complete' || input.move === 'retrySeal') {
    await enqueueJob(trx, {
      kind: SEAL_JOB,
      payload: { documentId: id },
      maxAttempts: SEAL_JOB_ATTEMPTS,
    });
  }
  return true;
}

/**
 * Performs a signee move inside the caller's transaction: compare-and-set of the status (with
 * `set`), the status-change event and the audit entry. False, with nothing written, when the
 * signee is no longer in the move's `from` status.
 */
export async function moveSignee(
  trx: DbOrTrx,
  input: {
    document: EventDocument;
    signee: Pick<repo.SigneeRow, 'id'>;
    move: SigneeMove;
    at: string;
    by: ChangeBy;
    set?: Partial<repo.SigneeRow>;
  },
): Promise<boolean> {
  const { from, to, audit } = SIGNEE_MOVES[input.move];
  const { id: documentId, tenant_id: tenantId } = input.document;
  const moved = await repo.transitionSignee(trx, {
    signeeId: input.signee.id,
    from,
    to,
    at: input.at,
    set: input.set,
  });
  if (!moved) return false;
  await recordStatusChange(trx, {
    tenantId,
    documentId,
    signeeId: input.signee.id,
    oldStatus: from,
    newStatus: to,
    changedAt: input.at,
    externalId: input.document.external_id,
    metadata: input.document.metadata,
  });
  await recordAudit(trx, {
    documentId,
    tenantId,
    action: audit,
    ...input.by,
    signeeId: input.signee.id,
    at: input.at,
  });
  return true;
}
