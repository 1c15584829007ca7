import type { DbOrTrx } from '../../db/handle.js';
import type { CopyLinksTable } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret, newId, newSecret, nowIso } from '../../lib/ids.js';
import { recordAudit, type RequestOrigin } from './audit.repo.js';
import { DOCUMENT_COLUMNS, type DocumentRow } from './documents.repo.js';

/** How long a link to a signed copy works. */
export const COPY_LINK_DAYS = 30;

/** At most one `copy downloaded` audit entry per copy link in this time. */
const COPY_AUDIT_INTERVAL_MS = 3600_000;

type CopyLinkRow = CopyLinksTable;

const gone = () => new AppError('link_expired', 'This link to the signed copy no longer works.');

/**
 * Makes a personal link to a document's signed copy, valid COPY_LINK_DAYS from `at`: its URL
 * (the token is stored hashed, so this is the only time it is known) and when it expires.
 */
export async function createCopyLink(
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

/** Whether a copy link still works: `available`, or why not. */
export function copyLinkState(link: Pick<CopyLinkRow, 'revoked_at' | 'expires_at'>) {
  if (link.revoked_at !== null) return 'revoked' as const;
  if (link.expires_at <= nowIso()) return 'expired' as const;
  return 'available' as const;
}

/**
 * The copy link a signee's signing link stands for: the one made for their address when the
 * document was signed (queueSignedCopies), or undefined (a document signed before signing links
 * served copies, or not signed at all).
 */
export async function findSigneeCopyLink(
  db: DbOrTrx,
  signee: { document_id: string; email: string },
): Promise<CopyLinkRow | undefined> {
  return db
    .selectFrom('copy_links')
    .selectAll()
    .where('document_id', '=', signee.document_id)
    .where('recipient', '=', signee.email)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/**
 * The document behind a signed-copy link, the download counted and audited (who it was sent
 * to, IP, user agent). A link revoked, expired, or of a document no longer signed answers 410.
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
  return serveCopyLink(db, link, input.origin);
}

/**
 * Serves a copy link found another way (a signee's signing link: findSigneeCopyLink) exactly as
 * its own URL would: the same checks, the same count and the same audit entries.
 */
export async function serveCopyLink(
  db: DbOrTrx,
  link: CopyLinkRow,
  origin: RequestOrigin,
): Promise<{ document: DocumentRow }> {
  const now = nowIso();
  if (copyLinkState(link) !== 'available') throw gone();
  const document = await db
    .selectFrom('documents')
    .select(DOCUMENT_COLUMNS)
    .where('id', '=', link.document_id)
    .executeTakeFirst();
  if (!document || document.status !== 'signed' || !document.sealed_file) throw gone();
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
      origin,
      details: { recipient: link.recipient, downloads: Number(link.downloads) + 1 },
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
