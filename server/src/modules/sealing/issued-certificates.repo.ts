import type { DbOrTrx } from '../../db/handle.js';

/** Records an audit certificate made alone, so that verifying it finds its document. */
export async function recordIssuedCertificate(
  db: DbOrTrx,
  row: { sha256: string; documentId: string; tenantId: string; at: string },
): Promise<void> {
  await db
    .insertInto('issued_certificates')
    .values({
      sha256: row.sha256,
      document_id: row.documentId,
      tenant_id: row.tenantId,
      created_at: row.at,
    })
    // The same bytes twice (one signing time, one trail) are one certificate.
    .onConflict((c) => c.column('sha256').doNothing())
    .execute();
}

/** The document of the audit certificate with this SHA-256, or undefined. */
export async function findCertificateDocumentId(
  db: DbOrTrx,
  sha256: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('issued_certificates')
    .select('document_id')
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  return row?.document_id;
}
