import type { DbOrTrx } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret, newId, newSecret, nowIso } from '../../lib/ids.js';
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
import { recordAudit, type RequestOrigin } from './audit.repo.js';
import { DOCUMENT_COLUMNS, type DocumentRow, type SigneeRow } from './documents.repo.js';

/** How long a link to a signed copy works. */
export const COPY_LINK_DAYS = 30;

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
 * by default: decisions §10) a personal link valid for
 * COPY_LINK_DAYS. Durable outbox e-mails, retried like invitations; queued once, since only
 * the transaction that moved the document calls this.
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
  for (const person of await recipients(trx, document, input.signees)) {
    const common = {
      brand,
      language: document.email_language,
      recipientName: person.name,
      documentName: document.name,
    };
    let rendered;
    if (attach) {
      rendered = renderSignedCopy(common);
    } else {
      const link = await createCopyLink(trx, {
        document,
        recipient: person.email,
        publicUrl: input.publicUrl,
        at: input.at,
      });
      rendered = renderSignedCopy({
        ...common,
        link: { ...link, size: `${(sealed.size / 1024 / 1024).toFixed(1)} MB` },
      });
    }
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

/** At most one `copy downloaded` audit entry per copy link in this time. */
const COPY_AUDIT_INTERVAL_MS = 3600_000;

async function createCopyLink(
  trx: DbOrTrx,
  input: { document: DocumentRow; recipient: string; publicUrl: string; at: string },
) {
  const token = newSecret('sc_');
  const expiresAt = new Date(Date.parse(input.at) + COPY_LINK_DAYS * 86_400_000).toISOString();
  await trx
    .insertInto('copy_links')
    .values({
      id: newId(),
      document_id: input.document.id,
      tenant_id: input.document.tenant_id,
      recipient: input.recipient,
      token_hash: hashSecret(token),
      expires_at: expiresAt,
      revoked_at: null,
      created_at: input.at,
      downloads: 0,
      audited_at: null,
    })
    .execute();
  return { url: `${input.publicUrl}/api/copies/${token}`, expiresAt };
}

/**
 * The document behind a signed-copy link, the opening audited (who it was sent to, IP, user
 * agent). A link revoked, expired, or of a document no longer signed answers 410.
 */
export async function openCopyLink(
  db: DbOrTrx,
  input: { token: string; origin: RequestOrigin },
): Promise<{ document: DocumentRow }> {
  const link = await db
    .selectFrom('copy_links')
    .selectAll()
    .where('token_hash', '=', hashSecret(input.token))
    .executeTakeFirst();
  if (!link) throw new AppError('not_found', 'This link is not valid.');
  const now = nowIso();
  if (link.revoked_at !== null || link.expires_at <= now) {
    throw new AppError('link_expired', 'This link to the signed copy no longer works.');
  }
  const document = await db
    .selectFrom('documents')
    .select(DOCUMENT_COLUMNS)
    .where('id', '=', link.document_id)
    .executeTakeFirst();
  if (!document || document.status !== 'signed' || !document.sealed_file) {
    throw new AppError('link_expired', 'This link to the signed copy no longer works.');
  }
  // Every download is counted; the audit trail gets the first and then at most one an hour
  // (with the count so far), so a link fetched in a loop cannot grow it without bound.
  await db
    .updateTable('copy_links')
    .set((eb) => ({ downloads: eb('downloads', '+', 1) }))
    .where('id', '=', link.id)
    .execute();
  const audited = await db
    .updateTable('copy_links')
    .set({ audited_at: now })
    .where('id', '=', link.id)
    .where((eb) =>
      eb.or([
        eb('audited_at', 'is', null),
        eb('audited_at', '<=', new Date(Date.parse(now) - COPY_AUDIT_INTERVAL_MS).toISOString()),
      ]),
    )
    .executeTakeFirst();
  if (Number(audited.numUpdatedRows) === 1) {
    await recordAudit(db, {
      documentId: document.id,
      tenantId: document.tenant_id,
      action: 'copy downloaded',
      actor: 'system',
      origin: input.origin,
      details: { recipient: link.recipient, downloads: link.downloads + 1 },
      at: now,
    });
  }
  return { document };
}

/** Revokes every link to a document's signed copy; how many still worked. */
export async function revokeCopyLinks(
  db: DbOrTrx,
  input: { document: DocumentRow; userId: string; origin: RequestOrigin },
) {
  const now = nowIso();
  const result = await db
    .updateTable('copy_links')
    .set({ revoked_at: now })
    .where('document_id', '=', input.document.id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  const revoked = Number(result.numUpdatedRows);
  await recordAudit(db, {
    documentId: input.document.id,
    tenantId: input.document.tenant_id,
    action: 'copy links revoked',
    actor: `user:${input.userId}`,
    origin: input.origin,
    details: { revoked },
    at: now,
  });
  return revoked;
}
