import type { Config } from '../../config.js';
import type { DbOrTrx, Engine } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret, nowIso } from '../../lib/ids.js';
import { findUserById } from '../accounts/accounts.repo.js';
import type { RequestOrigin } from '../documents/audit.repo.js';
import * as repo from '../documents/documents.repo.js';
import { isOpenForSigning, moveDocument } from '../documents/lifecycle.js';
import { inviteSignees } from '../documents/sending.service.js';
import { blockedReason, currentWave } from '../documents/signing-turns.js';

/** What a signee does with their link: sign (a signer), approve (an approver), or decline. */
export type SigningVerb = 'sign' | 'approve' | 'decline';

/**
 * Resolves a link to its signee and document; finished documents answer 410. With `lock`, the
 * document is held until the transaction ends and the signee read again under the lock.
 */
export async function resolveLink(db: DbOrTrx, token: string, lock?: Engine) {
  const tokenHash = hashSecret(token);
  let signee = await repo.findSigneeByTokenHash(db, tokenHash);
  if (!signee) throw new AppError('not_found', 'This signing link does not exist.');
  // In a transaction that changes the document, it is held until the commit (lockDocument), and
  // the signee read again under the lock: signees of one wave sign whenever they like, and two
  // signing at once must each see the other's signature, or neither completes the document.
  const document = lock
    ? await repo.lockDocument(db, lock, signee.document_id)
    : await repo.findDocument(db, signee.document_id);
  if (lock) signee = await repo.findSigneeByTokenHash(db, tokenHash);
  if (!signee) throw new AppError('not_found', 'This signing link does not exist.');
  if (!document) throw new AppError('not_found', 'This signing link does not exist.');
  // Past its deadline a document is closed at once, even before its expiry job has run.
  const expired =
    document.cancel_reason === 'expired' ||
    (document.expires_at !== null && document.expires_at <= nowIso());
  if (!isOpenForSigning(document.status) || expired) {
    const state = expired ? 'expired' : document.status.replace('_', ' ');
    throw new AppError(
      'link_expired',
      `This signing link is no longer valid: the document is ${state}.`,
      {
        extensions: { language: signee.language ?? document.email_language },
      },
    );
  }
  return { signee, document };
}

/**
 * Refuses a step the signee's role does not take (an approver approves, a signer signs: 409
 * `invalid_status`), a signee whose turn it is not (409 `not_your_turn`), or one who has signed,
 * approved or declined already.
 */
export function assertTurn(
  document: repo.DocumentRow,
  signees: repo.SigneeRow[],
  signee: repo.SigneeRow,
  verb: SigningVerb,
) {
  if (verb === 'sign' && signee.role === 'approver') {
    throw new AppError(
      'invalid_status',
      "This link is an approver's: approve (POST …/approve) or reject (POST …/decline) instead of signing.",
    );
  }
  if (verb === 'approve' && signee.role !== 'approver') {
    throw new AppError('invalid_status', 'Only an approver approves; this link is for signing.');
  }
  const reason = blockedReason(document, signees, signee);
  if (reason === 'not_your_turn') {
    throw new AppError('not_your_turn', 'Earlier signees have to sign first.');
  }
  if (reason) {
    throw new AppError('invalid_status', `You cannot ${verb}: ${reason.replace('_', ' ')}.`);
  }
}

/**
 * After a signature or an approval, in its transaction: the last one (no signer or approver
 * left in any wave; cc recipients are waited for by no one) moves the document to pending_seal
 * and enqueues the seal job, otherwise a completed wave invites the next one.
 */
export async function advanceSigning(
  trx: DbOrTrx,
  deps: { config: Pick<Config, 'publicUrl' | 'secretKey' | 'mailDailyLimitPerTenant'> },
  input: {
    document: repo.DocumentRow;
    /** The document's signees as they stand after this step. */
    signees: repo.SigneeRow[];
    by: { actor: string; origin: RequestOrigin };
    at: string;
  },
) {
  const { document } = input;
  const next = currentWave(document, input.signees);
  if (next.length === 0) {
    await moveDocument(trx, { document, move: 'complete', at: input.at, by: input.by });
    return;
  }
  const uninvited = next.filter((s) => s.invited_at === null);
  if (uninvited.length > 0) {
    const sender = await findUserById(trx, document.user_id);
    await inviteSignees(trx, deps, {
      document,
      signees: uninvited,
      senderName: sender?.name ?? 'Signet',
    });
  }
}
