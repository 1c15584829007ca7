import type { Selectable } from 'kysely';
import type { DbOrTrx, Engine } from '../../db/handle.js';
import type { SigneeAuthStateTable } from '../../db/schema.js';

/** The attempts on one signee's link. */
export type AuthStateRow = Selectable<SigneeAuthStateTable>;

/**
 * The link's state row, made if it has none, held until the commit on PostgreSQL (SQLite runs
 * one writing transaction at a time): two attempts at once each see the other's count.
 */
export async function lockAuthState(
  trx: DbOrTrx,
  engine: Engine,
  signeeId: string,
): Promise<AuthStateRow> {
  await trx
    .insertInto('signee_auth_state')
    .values({ signee_id: signeeId, failures: 0, otp_sends: 0 })
    .onConflict((c) => c.column('signee_id').doNothing())
    .execute();
  const query = trx.selectFrom('signee_auth_state').selectAll().where('signee_id', '=', signeeId);
  return (engine === 'postgres' ? query.forUpdate() : query).executeTakeFirstOrThrow();
}

/** Changes the link's state row. */
export async function updateAuthState(
  trx: DbOrTrx,
  signeeId: string,
  set: Partial<Omit<AuthStateRow, 'signee_id'>>,
): Promise<void> {
  await trx.updateTable('signee_auth_state').set(set).where('signee_id', '=', signeeId).execute();
}

/** What the signing routes need of a link to check its verification. */
export type LinkAuth = {
  signeeId: string;
  documentId: string;
  tenantId: string;
  email: string;
  auth: 'none' | 'access_code' | 'email_otp';
  accessCodeHash: string | null;
  language: string;
  documentOpen: boolean;
  expired: boolean;
  name: string;
};

/** The signee of a link's token hash with its document's language and state, or undefined. */
export async function findLinkAuth(
  db: DbOrTrx,
  tokenHash: string,
): Promise<(LinkAuth & { documentName: string }) | undefined> {
  const row = await db
    .selectFrom('signees')
    .innerJoin('documents', 'documents.id', 'signees.document_id')
    .select([
      'signees.id',
      'signees.document_id',
      'signees.tenant_id',
      'signees.email',
      'signees.name',
      'signees.auth',
      'signees.access_code_hash',
      'signees.language',
      'documents.email_language',
      'documents.status',
      'documents.expires_at',
      'documents.cancel_reason',
      'documents.name as document_name',
    ])
    .where('signees.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    signeeId: row.id,
    documentId: row.document_id,
    tenantId: row.tenant_id,
    email: row.email,
    name: row.name,
    auth: row.auth,
    accessCodeHash: row.access_code_hash,
    language: row.language ?? row.email_language,
    documentOpen: row.status === 'in_process',
    expired:
      row.cancel_reason === 'expired' ||
      (row.expires_at !== null && row.expires_at <= new Date().toISOString()),
    documentName: row.document_name,
  };
}
