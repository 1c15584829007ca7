import type { DbOrTrx } from '../../db/handle.js';
import { findUserById } from '../accounts/accounts.repo.js';
import { queueEmail } from '../mail/mail.service.js';
import { loadBrand } from '../tenants/branding.js';
import type { SigneeEmailKind } from '../mail/mail-audit.js';
import {
  renderCancelledNotice,
  renderDeclined,
  renderDeclinedNotice,
  renderSignedCopy,
} from '../mail/templates/after-signing.js';
import type { DocumentRow, SigneeRow } from './documents.repo.js';
import { createCopyLink } from './copy-links.js';

/** A sealed file as the completion e-mails send it. */
export type SealedCopy = { key: string; size: number; filename: string };

// Everyone a document's completion concerns: its signees, and the sender once (a sender who is
// also a signee gets one e-mail, audited as the signee's).
async function recipients(trx: DbOrTrx, document: DocumentRow, signees: SigneeRow[]) {
  const people: Array<{ name: string; email: string; signeeId: string | null }> = signees.map(
    (s) => ({ name: s.name, email: s.email, signeeId: s.id }),
  );
  const sender = await findUserById(trx, document.user_id);
  if (sender && !people.some((p) => p.email.toLowerCase() === sender.email.toLowerCase())) {
    people.push({ name: sender.name, email: sender.email, signeeId: null });
  }
  return people;
}

// What an e-mail to a signee records in the trail when the outbox settles it (mail-audit.ts);
// the sender's e-mails are not a signee's and record nothing.
function signeeAudit(document: DocumentRow, signeeId: string | null, kind: SigneeEmailKind) {
  return signeeId ? { documentId: document.id, signeeId, kind } : undefined;
}

/** The name a signed copy downloads as: the original's, with "-signed". */
export function signedFilename(document: Pick<DocumentRow, 'original_file'>) {
  return pdfFilename(document.original_file).replace(/\.pdf$/i, '-signed.pdf');
}

/**
 * The name a download of a document's PDF goes by: the uploaded name with its extension made
 * `.pdf` (`invoice.exe` → `invoice.pdf`, `scan` → `scan.pdf`). The file is a PDF whatever it
 * was called; a download saved as `.exe` would be run as one by a careless double-click (a PDF
 * may start with `MZ`, as a Windows program does).
 */
export function pdfFilename(name: string) {
  if (/\.pdf$/i.test(name)) return name;
  const stem = name.replace(/\.[^.]*$/, '');
  return `${stem || 'document'}.pdf`;
}

/**
 * Queues the signed copy for every signee and the sender, in the transaction that makes the
 * document `signed`: attached, or above `attachmentLimit` (MAIL_ATTACHMENT_LIMIT_BYTES, 10 MiB
 * by default: decisions §10) a personal link valid for COPY_LINK_DAYS. Every signee holding a
 * signing link gets such a link either way: it serves the signed copy through it (copy-links.ts), so the
 * page's download is personal, expires, is revoked and is audited as the e-mailed one is.
 * Durable outbox e-mails, retried like invitations; queued once, since only the transaction
 * that moved the document calls this.
 */
export async function queueSignedCopies(
  trx: DbOrTrx,
  input: {
    document: DocumentRow;
    signees: SigneeRow[];
    sealed: SealedCopy;
    publicUrl: string;
    attachmentLimit: number;
    at: string;
  },
) {
  const { document, sealed } = input;
  const attach = sealed.size <= input.attachmentLimit;
  const brand = await loadBrand(trx, document.tenant_id, input.publicUrl);
  const withLink = new Set(input.signees.filter((s) => s.token_hash !== null).map((s) => s.id));
  for (const person of await recipients(trx, document, input.signees)) {
    const common = {
      brand,
      language: document.email_language,
      recipientName: person.name,
      documentName: document.name,
    };
    // A signee with a signing link gets a copy link either way (the link serves the copy); a cc
    // recipient or a sender who is no signee, only when the e-mail needs one.
    const link =
      (person.signeeId !== null && withLink.has(person.signeeId)) || !attach
        ? await createCopyLink(trx, {
            document,
            recipient: person.email,
            publicUrl: input.publicUrl,
            at: input.at,
          })
        : null;
    const rendered =
      attach || !link
        ? renderSignedCopy(common)
        : renderSignedCopy({
            ...common,
            link: { ...link, size: `${(sealed.size / 1024 / 1024).toFixed(1)} MB` },
          });
    await queueEmail(trx, {
      ...rendered,
      to: person.email,
      tenantId: document.tenant_id,
      audit: signeeAudit(document, person.signeeId, 'copy'),
      attachment: attach
        ? {
            key: sealed.key,
            filename: sealed.filename,
            contentType: 'application/pdf',
            size: sealed.size,
          }
        : undefined,
    });
  }
}

/**
 * Tells the sender who declined and why, and the other invited signees and the cc recipients
 * that it is over.
 */
export async function queueDeclineNotices(
  trx: DbOrTrx,
  input: {
    document: DocumentRow;
    signees: SigneeRow[];
    decliner: SigneeRow;
    reason: string;
    publicUrl: string;
  },
) {
  const { document, decliner } = input;
  const sender = await findUserById(trx, document.user_id);
  const brand = await loadBrand(trx, document.tenant_id, input.publicUrl);
  if (sender) {
    await queueEmail(trx, {
      ...renderDeclined({
        brand,
        language: document.email_language,
        recipientName: sender.name,
        documentName: document.name,
        signeeName: decliner.name,
        signeeEmail: decliner.email,
        reason: input.reason,
        documentUrl: `${input.publicUrl}/app/documents/${document.id}`,
      }),
      to: sender.email,
      tenantId: document.tenant_id,
    });
  }
  for (const signee of invitedOthers(input.signees, decliner.id)) {
    await queueEmail(trx, {
      ...renderDeclinedNotice({
        brand,
        language: document.email_language,
        recipientName: signee.name,
        documentName: document.name,
        signeeName: decliner.name,
        cc: signee.role === 'cc',
      }),
      to: signee.email,
      tenantId: document.tenant_id,
      audit: signeeAudit(document, signee.id, 'declined'),
    });
  }
}

/**
 * Tells the signees already invited, and the cc recipients, that the sender cancelled (or the
 * deadline passed), with the reason if given.
 */
export async function queueCancelNotices(
  trx: DbOrTrx,
  input: {
    document: DocumentRow;
    signees: SigneeRow[];
    reason: string | null;
    expired?: boolean;
    publicUrl: string;
  },
) {
  const { document } = input;
  const sender = await findUserById(trx, document.user_id);
  const brand = await loadBrand(trx, document.tenant_id, input.publicUrl);
  for (const signee of invitedOthers(input.signees, null)) {
    await queueEmail(trx, {
      ...renderCancelledNotice({
        brand,
        expired: input.expired,
        language: document.email_language,
        recipientName: signee.name,
        documentName: document.name,
        senderName: sender?.name ?? 'The sender',
        reason: input.reason,
        cc: signee.role === 'cc',
      }),
      to: signee.email,
      tenantId: document.tenant_id,
      audit: signeeAudit(document, signee.id, 'cancelled'),
    });
  }
}

// Signees who hold a signing link and have not signed or declined (their link just stopped
// working), and every cc recipient (copied on the notices: decisions §12); those never invited
// (a later wave) had nothing to lose.
function invitedOthers(signees: SigneeRow[], except: string | null) {
  return signees.filter(
    (s) => s.id !== except && s.status === 'pending' && (s.invited_at !== null || s.role === 'cc'),
  );
}
