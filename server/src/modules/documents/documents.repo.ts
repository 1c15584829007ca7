import { PostgresAdapter, sql, type Selectable } from 'kysely';
import type { DocumentsTable, SigneesTable } from '../../db/schema.js';
import { preparedQuery } from '../../db/prepared.js';
import type { DbOrTrx, Engine } from '../../db/handle.js';
import {
  containsPattern,
  searchTextOf,
  tenantTrigramPhrase,
  tenantTrigrams,
  trigramSearchable,
} from './search-text.js';
import type { AuditRow } from './audit.repo.js';
import { documentsWithFailedEmail } from './summary.repo.js';
import { deferWrite } from '../../db/deferred-writes.js';

/**
 * The columns of a DocumentRow: every read of documents names them, so that none loads the
 * fields, kept last in the row where a read that stops before them never touches them.
 */
export const DOCUMENT_COLUMNS = [
  'id',
  'tenant_id',
  'folder_id',
  'name',
  'status',
  'pinned',
  'source',
  'user_id',
  'signing_method',
  'signing_message',
  'signing_order_enabled',
  'signing_groups_enabled',
  'reminder_cooldown_until',
  'email_language',
  'file',
  'original_file',
  'content_type',
  'size_bytes',
  'original_sha256',
  'hash',
  'sealed_file',
  'seal_mode',
  'seal_level',
  'seal_failure',
  'page_sizes',
  'page_sizes_error',
  'search_text',
  'created_at',
  'updated_at',
  'template_id',
  'external_id',
  'metadata',
  'expires_at',
  'cancel_reason',
  'redirect_url',
  'reminders',
  'completed_at',
] as const;

/** Documents whose seal failed for good, oldest change first (`signet seal failed`). */
export function listSealFailures(db: DbOrTrx) {
  return db
    .selectFrom('documents')
    .select(['id', 'tenant_id', 'updated_at', 'seal_failure'])
    .where('status', '=', 'seal_failed')
    .orderBy('updated_at')
    .execute();
}

/**
 * A document row, but its fields (fields.repo.ts reads and writes those): made of the columns
 * above, so that a column added to the table and not to the list is not there to read.
 */
export type DocumentRow = Pick<Selectable<DocumentsTable>, (typeof DOCUMENT_COLUMNS)[number]>;
/** A signee row. */
export type SigneeRow = Selectable<SigneesTable>;

const insertDocumentRow = preparedQuery(
  (q, p: { document: DocumentRow & { fields: string | null } }) =>
    q.insertInto('documents').values(p.document),
);
const insertSigneeRows = preparedQuery((q, p: { signees: SigneeRow[] }) =>
  q.insertInto('signees').values(p.signees),
);
const insertAuditRow = preparedQuery((q, p: { audit: AuditRow }) =>
  q.insertInto('audit_entries').values(p.audit),
);
// PostgreSQL: the three inserts as one statement, one round trip instead of three (the
// foreign keys are checked at its end, when all three rows are in).
const insertAllRows = preparedQuery(
  (
    q,
    p: { document: DocumentRow & { fields: string | null }; signees: SigneeRow[]; audit: AuditRow },
  ) =>
    q
      .with('d', (w) => w.insertInto('documents').values(p.document))
      .with('s', (w) => w.insertInto('signees').values(p.signees))
      .insertInto('audit_entries')
      .values(p.audit),
);

/**
 * Inserts a new document with its signees, its fields (fields.repo.ts encodeFields) if any, and
 * its first audit entry (audit.repo.ts auditRow).
 */
export async function insertDocument(
  db: DbOrTrx,
  document: DocumentRow & { fields: string | null },
  signees: SigneeRow[],
  audit: AuditRow,
) {
  if (signees.length > 0 && db.getExecutor().adapter instanceof PostgresAdapter) {
    await insertAllRows(db, { document, signees, audit });
    return;
  }
  // Several statements: in the caller's transaction, or in one of their own.
  const insert = async (trx: DbOrTrx) => {
    await insertDocumentRow(trx, { document });
    await insertSignees(trx, signees);
    await insertAuditRow(trx, { audit });
  };
  await (db.isTransaction ? insert(db) : db.transaction().execute(insert));
}

/** Inserts signees of an existing document. */
export async function insertSignees(db: DbOrTrx, signees: SigneeRow[]) {
  if (signees.length > 0) await insertSigneeRows(db, { signees });
}

/** Deletes a signee (its fields first: fields.ts deleteSigneeFields). */
export async function deleteSignee(db: DbOrTrx, signeeId: string) {
  await db.deleteFrom('signees').where('id', '=', signeeId).execute();
}

/** A document of a tenant, or undefined. */
export function findDocument(db: DbOrTrx, documentId: string) {
  return db
    .selectFrom('documents')
    .select(DOCUMENT_COLUMNS)
    .where('id', '=', documentId)
    .executeTakeFirst();
}

// A document, its fields and the caller's role in its tenant in one read; `lock` holds the
// document's row (PostgreSQL) until the transaction ends. Prepared, each form compiled once.
function documentForMember(lock: boolean) {
  return preparedQuery((q, p: { documentId: string; userId: string }) => {
    const query = documentAndRole(q, p);
    const postgres = q.getExecutor().adapter instanceof PostgresAdapter;
    return lock && postgres ? query.forUpdate('documents') : query;
  });
}
const documentForReader = documentForMember(false);
const documentForWriter = documentForMember(true);

function documentAndRole(q: DbOrTrx, p: { documentId: string; userId: string }) {
  return q
    .selectFrom('documents')
    .leftJoin('memberships', (join) =>
      join
        .onRef('memberships.tenant_id', '=', 'documents.tenant_id')
        .on('memberships.user_id', '=', p.userId),
    )
    .select(DOCUMENT_COLUMNS.map((column) => `documents.${column}` as const))
    .select(['documents.fields', 'memberships.role as member_role'])
    .where('documents.id', '=', p.documentId);
}

// PostgreSQL: the reader's read with the document's signees as one JSON array (every signee
// column is text or integer, so JSON gives the values a row would).
const documentWithSigneesForReader = preparedQuery((q, p: { documentId: string; userId: string }) =>
  documentAndRole(q, p).select(
    sql<
      SigneeRow[]
    >`(select coalesce(json_agg(s order by s.position), '[]'::json) from signees s where s.document_id = documents.id)`.as(
      'signees',
    ),
  ),
);

/**
 * A document with the user's role in its tenant (`member_role`, null for a non-member) and its
 * stored fields (`fields`) in one read, where reading them apart took three round trips to
 * PostgreSQL; `lock`: held as lockDocument holds it.
 */
export async function findDocumentForMember(
  db: DbOrTrx,
  input: { documentId: string; userId: string; lock?: boolean },
) {
  const read = input.lock ? documentForWriter : documentForReader;
  const [found] = await read(db, { documentId: input.documentId, userId: input.userId });
  if (!found) return undefined;
  const { fields, member_role, ...document } = found;
  return { document: document as DocumentRow, fields, role: member_role };
}

/**
 * findDocumentForMember with the document's signees in their input order: one read on
 * PostgreSQL, two on SQLite (where a read is no round trip).
 */
export async function findDocumentWithSignees(
  db: DbOrTrx,
  input: { documentId: string; userId: string },
) {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    const found = await findDocumentForMember(db, input);
    return found && { ...found, signees: await listSignees(db, found.document.id) };
  }
  const [found] = await documentWithSigneesForReader(db, input);
  if (!found) return undefined;
  const { fields, member_role, signees, ...document } = found;
  return { document: document as DocumentRow, fields, role: member_role, signees };
}

/**
 * A document, its row locked until the transaction ends, so that what the caller reads next
 * (its signees) cannot change before it commits. SQLite runs one transaction at a time and
 * needs no lock.
 */
export function lockDocument(db: DbOrTrx, engine: Engine, documentId: string) {
  const query = db.selectFrom('documents').select(DOCUMENT_COLUMNS).where('id', '=', documentId);
  return (engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** A document's signees in their input order. */
export function listSignees(db: DbOrTrx, documentId: string) {
  return db
    .selectFrom('signees')
    .selectAll()
    .where('document_id', '=', documentId)
    .orderBy('position')
    .execute();
}

/**
 * Moves a document from one status to another only if it is still in the expected one: the
 * compare-and-set that makes concurrent transitions safe on both engines.
 */
export async function transitionDocument(
  db: DbOrTrx,
  input: {
    documentId: string;
    from: DocumentRow['status'][];
    to: DocumentRow['status'];
    at: string;
    set?: Partial<DocumentRow>;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('documents')
    .set({ ...input.set, status: input.to, updated_at: input.at })
    .where('id', '=', input.documentId)
    .where('status', 'in', input.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Moves a signee from one status to another only if it is still in the expected one. */
export async function transitionSignee(
  db: DbOrTrx,
  input: {
    signeeId: string;
    from: SigneeRow['status'];
    to: SigneeRow['status'];
    at: string;
    set?: Partial<SigneeRow>;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('signees')
    .set({ ...input.set, status: input.to, updated_at: input.at })
    .where('id', '=', input.signeeId)
    .where('status', '=', input.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The signee whose signing link has this token hash, or undefined. */
export function findSigneeByTokenHash(db: DbOrTrx, tokenHash: string) {
  return db
    .selectFrom('signees')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Starts a reminder cooldown until `until` if the document is in process and none runs at
 * `now`; true when this call started it.
 */
export async function claimReminderCooldown(
  db: DbOrTrx,
  input: { documentId: string; now: string; until: string },
): Promise<boolean> {
  const result = await db
    .updateTable('documents')
    .set({ reminder_cooldown_until: input.until, updated_at: input.now })
    .where('id', '=', input.documentId)
    .where('status', '=', 'in_process')
    .where((eb) =>
      eb.or([
        eb('reminder_cooldown_until', 'is', null),
        eb('reminder_cooldown_until', '<=', input.now),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Updates columns of a document. */
export async function updateDocument(db: DbOrTrx, documentId: string, set: Partial<DocumentRow>) {
  await db.updateTable('documents').set(set).where('id', '=', documentId).execute();
}

/** Updates columns of a signee. */
export async function updateSignee(db: DbOrTrx, signeeId: string, set: Partial<SigneeRow>) {
  await db.updateTable('signees').set(set).where('id', '=', signeeId).execute();
}

/** A signee's signing link as an invitation sets it: the token's hash and the first invitation. */
export type SigningLink = { id: string; token_hash: string; invited_at: string };

/** Sets each signee's signing link, in one statement however many signees. */
export async function setSigningLinks(db: DbOrTrx, links: SigningLink[], now: string) {
  if (links.length === 0) return;
  const [first] = links;
  const update = db
    .updateTable('signees')
    .set((eb) => {
      const byId = (column: 'token_hash' | 'invited_at') =>
        links
          .slice(1)
          .reduce(
            (cases, link) => cases.when('id', '=', link.id).then(link[column]),
            eb.case().when('id', '=', first.id).then(first[column]),
          )
          .end();
      return { token_hash: byId('token_hash'), invited_at: byId('invited_at'), updated_at: now };
    })
    .where(
      'id',
      'in',
      links.map((link) => link.id),
    );
  await deferWrite(db, update);
}

/** What a listing is narrowed to, besides its tenant. */
export type ListFilter = {
  status?: DocumentRow['status'];
  /** Only the documents filed directly in this folder. */
  folderId?: string;
  /** true: only pinned documents; false: only those not pinned. */
  pinned?: boolean;
  /** A search term as `searchTerm` gives it: contained in the name or a signee's name or e-mail. */
  term?: string;
  /** Only the documents with exactly this externalId. */
  externalId?: string;
  /** Only the documents that became signed at or after this ISO time. */
  completedSince?: string;
  /** true: only the documents in process with a failed e-mail (summary.repo.ts). */
  emailFailed?: boolean;
};

/**
 * How many FTS5 hits a SQLite search fetches up front: up to this many, the page is made from
 * those rows alone; beyond it the term is common enough in the tenant that walking its
 * documents newest first meets 25 matches soon (after about 25 x documents / hits rows).
 */
const SEARCH_CANDIDATES = 2000;

/**
 * A page of a tenant's documents, newest first, after the (createdAt, id) cursor.
 *
 * A search enters its index through the tenant (migration 0017) and never reads another
 * tenant's entries: were it to, a term found only in someone else's documents would take longer
 * to answer `[]` than a term found nowhere, and timing would tell who has which signee.
 */
export async function listDocuments(
  db: DbOrTrx,
  engine: Engine,
  input: ListFilter & {
    tenantId: string;
    limit: number;
    after?: { createdAt: string; id: string };
  },
) {
  const term = input.term;
  let rowids: number[] | null = null;
  if (term && engine === 'sqlite' && trigramSearchable(term)) {
    // The phrase is made of this tenant's tokens (search-text.ts): other tenants' are other
    // terms, whose entries it never reads.
    const hits = await sql<{ rowid: number }>`select rowid from documents_search
      where documents_search match ${tenantTrigramPhrase(input.tenantId, term)}
      limit ${SEARCH_CANDIDATES + 1}`.execute(db);
    if (hits.rows.length <= SEARCH_CANDIDATES) {
      // The tenant's documents changed since the index's last batch are candidates too
      // (search-indexer.ts).
      const pending = await sql<{ rowid: number }>`
        select p.doc_rowid as rowid from documents_search_pending p
        join documents d on d.rowid = p.doc_rowid
        where d.tenant_id = ${input.tenantId}`.execute(db);
      const candidates = [...hits.rows, ...pending.rows];
      if (candidates.length === 0) return [];
      // A backlog the indexer has not caught up with: walk the documents instead.
      if (candidates.length <= 2 * SEARCH_CANDIDATES) rowids = candidates.map((r) => r.rowid);
    }
  }
  // With the hits in hand, the other conditions must not lure SQLite (which plans without
  // statistics) onto an index: a unary + makes a column unindexable.
  const column = (
    name: 'tenant_id' | 'status' | 'folder_id' | 'pinned' | 'external_id' | 'completed_at',
  ) => (rowids ? sql<string>`+${sql.ref(name)}` : sql<string>`${sql.ref(name)}`);
  let query = db
    .selectFrom('documents')
    .select(DOCUMENT_COLUMNS)
    .where(column('tenant_id'), '=', input.tenantId);
  if (rowids) query = query.where(sql<number>`documents.rowid`, 'in', rowids);
  if (input.status) query = query.where(column('status'), '=', input.status);
  if (input.folderId) query = query.where(column('folder_id'), '=', input.folderId);
  // Through documents_tenant_external_idx (migration 0022) unless search hits came first.
  if (input.externalId !== undefined) {
    query = query.where(column('external_id'), '=', input.externalId);
  }
  if (input.pinned !== undefined) {
    query = query.where(column('pinned'), input.pinned ? 'is not' : 'is', null);
  }
  if (input.completedSince !== undefined) {
    query = query.where(column('completed_at'), '>=', input.completedSince);
  }
  if (input.emailFailed) {
    query = query
      .where(column('status'), '=', 'in_process')
      .where('id', 'in', documentsWithFailedEmail(db, input.tenantId));
  }
  if (term && engine === 'postgres' && trigramSearchable(term)) {
    // Narrows through the index of the tenant's own trigrams (migration 0017).
    query = query.where(
      sql<boolean>`documents_search_keys(tenant_id, search_text) @> ${tenantTrigrams(input.tenantId, term)}::text[]`,
    );
  }
  // The exact rule on every engine; the indexes only narrow.
  if (term)
    query = query.where(sql<boolean>`search_text like ${containsPattern(term)} escape '\\'`);
  if (input.after) {
    const { createdAt, id } = input.after;
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(createdAt, id)));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(input.limit).execute();
}

/** Recomputes a document's search text from its (current) name and its signees. */
export async function refreshSearchText(db: DbOrTrx, document: { id: string; name: string }) {
  const signees = await listSignees(db, document.id);
  await db
    .updateTable('documents')
    .set({ search_text: searchTextOf(document.name, signees) })
    .where('id', '=', document.id)
    .execute();
}

/** Deletes a document and its dependent rows. */
export async function deleteDocument(db: DbOrTrx, documentId: string) {
  await db.deleteFrom('signees').where('document_id', '=', documentId).execute();
  await db.deleteFrom('audit_entries').where('document_id', '=', documentId).execute();
  await db.deleteFrom('documents').where('id', '=', documentId).execute();
}

/** The id of a signed document whose sealed file has this SHA-256, or undefined. */
export async function findSignedDocumentIdByHash(db: DbOrTrx, hash: string) {
  const row = await db
    .selectFrom('documents')
    .select('id')
    .where('hash', '=', hash)
    .where('status', '=', 'signed')
    .executeTakeFirst();
  return row?.id;
}

/** Which of the given ids are documents. */
export async function existingDocumentIds(db: DbOrTrx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('documents').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}
