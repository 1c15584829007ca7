import type { DbOrTrx } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret, nowIso } from '../../lib/ids.js';
import { findUserById } from '../accounts/accounts.repo.js';
import type { RequestOrigin } from '../documents/audit.repo.js';
import { copyLinkState, findSigneeCopyLink, serveCopyLink } from '../documents/copy-links.js';
import * as repo from '../documents/documents.repo.js';
import { loadBrand } from '../tenants/branding.js';

/**
 * Where a signing link's document stands, as its signee is told: `open` (signing goes on),
 * `sealing` (everyone signed, the signed copy is being made, or its seal is being retried),
 * `signed`, `declined`, `cancelled` (by the sender) or `expired` (its deadline passed).
 */
export type LinkState = 'open' | 'sealing' | 'signed' | 'declined' | 'cancelled' | 'expired';

/** The state a document's links report (see LinkState). */
export function linkStateOf(
  document: Pick<repo.DocumentRow, 'status' | 'cancel_reason' | 'expires_at'>,
): LinkState {
  switch (document.status) {
    case 'draft':
    case 'in_process':
      // Past its deadline a document is closed at once, even before its expiry job has run.
      return document.expires_at !== null && document.expires_at <= nowIso() ? 'expired' : 'open';
    case 'pending_seal':
    case 'seal_failed':
      return 'sealing';
    case 'signed':
      return 'signed';
    case 'declined':
      return 'declined';
    case 'cancelled':
      return document.cancel_reason === 'expired' ? 'expired' : 'cancelled';
  }
}

async function linkOf(db: DbOrTrx, token: string) {
  const signee = await repo.findSigneeByTokenHash(db, hashSecret(token));
  const document = signee && (await repo.findDocument(db, signee.document_id));
  if (!signee || !document) throw new AppError('not_found', 'This signing link does not exist.');
  return { signee, document };
}

// The signee who declined a document: their name, and whether it is the link's own signee.
async function decliner(db: DbOrTrx, documentId: string, signeeId: string) {
  const row = (await repo.listSignees(db, documentId)).find((s) => s.status === 'declined');
  return row ? { you: row.id === signeeId, name: row.name } : null;
}

/**
 * What a signing link's page says, whatever became of its document: read-only (nothing is
 * recorded), and the only signing read that answers once the document is closed. A signed
 * document's answer carries the signee's copy: the copy link made for them when it was signed,
 * served at `/api/signing/{token}/copy`, or why it no longer works. Who declined is named (the
 * decline notice e-mailed to every other link holder names them too); their reason is not: it
 * is for the sender.
 */
export async function linkStatus(db: DbOrTrx, token: string, publicUrl: string) {
  const { signee, document } = await linkOf(db, token);
  const state = linkStateOf(document);
  const sender = await findUserById(db, document.user_id);
  const link = state === 'signed' ? await findSigneeCopyLink(db, signee) : undefined;
  const copyState = link && copyLinkState(link);
  return {
    state,
    language: signee.language ?? document.email_language,
    document: { id: document.id, name: document.name, senderName: sender?.name ?? 'Signet' },
    signee: {
      id: signee.id,
      name: signee.name,
      email: signee.email,
      status: signee.status,
      role: signee.role,
    },
    declinedBy: state === 'declined' ? await decliner(db, document.id, signee.id) : null,
    // The page wears the tenant's brand as the signing page did.
    brand: await loadBrand(db, document.tenant_id, publicUrl),
    copy:
      link && copyState
        ? {
            status: copyState,
            url:
              copyState === 'available' ? `/api/signing/${encodeURIComponent(token)}/copy` : null,
            expiresAt: link.expires_at,
          }
        : null,
  };
}

/**
 * The signed copy behind a signing link: the signee's copy link, served as its own URL would be
 * (counted, audited as `copy downloaded`, 410 once revoked or expired). A document not signed
 * never gives a PDF: 409 `invalid_status` while signing or sealing goes on, 410 once it was
 * declined, cancelled or expired.
 */
export async function signeeCopy(db: DbOrTrx, token: string, origin: RequestOrigin) {
  const { signee, document } = await linkOf(db, token);
  const state = linkStateOf(document);
  if (state === 'open' || state === 'sealing') {
    throw new AppError(
      'invalid_status',
      'There is no signed copy yet: the document is not signed.',
    );
  }
  const link = state === 'signed' ? await findSigneeCopyLink(db, signee) : undefined;
  if (!link) {
    throw new AppError(
      'link_expired',
      state === 'signed'
        ? 'This link serves no signed copy: it was sent by e-mail.'
        : `There is no signed copy: the document is ${state}.`,
      { extensions: { language: signee.language ?? document.email_language } },
    );
  }
  return serveCopyLink(db, link, origin);
}
