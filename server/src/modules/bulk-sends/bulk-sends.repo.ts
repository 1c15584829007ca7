import type { Insertable, Selectable } from 'kysely';
import type { DbOrTrx } from '../../db/handle.js';
import type { BulkSendRowsTable, BulkSendsTable } from '../../db/schema.js';
import type { Cursor } from '../../lib/cursor.js';

/** A bulk send row. */
export type BulkSendRow = Selectable<BulkSendsTable>;

/** One row of a bulk send's file. */
export type BulkRowRecord = Selectable<BulkSendRowsTable>;

// Rows per INSERT: 7 columns each stays far below either engine's bound on parameters.
const INSERT_CHUNK = 500;

/** Inserts a new bulk send. */
export async function insertBulkSend(db: DbOrTrx, row: BulkSendRow) {
  await db.insertInto('bulk_sends').values(row).execute();
}

/** Inserts rows in chunks of 500; `between` runs after each chunk (to yield the event loop). */
export async function insertBulkRows(
  db: DbOrTrx,
  rows: Array<Insertable<BulkSendRowsTable>>,
  between: () => Promise<void> = async () => {},
) {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insertInto('bulk_send_rows')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute();
    await between();
  }
}

/** A bulk send by id. */
export function findBulkSend(db: DbOrTrx, bulkSendId: string) {
  return db.selectFrom('bulk_sends').selectAll().where('id', '=', bulkSendId).executeTakeFirst();
}

/** Changes a bulk send's columns; the number of rows changed (0 or 1). */
export async function updateBulkSend(
  db: DbOrTrx,
  bulkSendId: string,
  set: Partial<Omit<BulkSendRow, 'id'>>,
  onlyIf?: { status: BulkSendRow['status'] | 'not completed' },
): Promise<number> {
  let query = db.updateTable('bulk_sends').set(set).where('id', '=', bulkSendId);
  if (onlyIf?.status === 'not completed') query = query.where('status', '!=', 'completed');
  else if (onlyIf) query = query.where('status', '=', onlyIf.status);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Adds to a bulk send's `created` and `failed` counts. */
export async function addCounts(
  db: DbOrTrx,
  bulkSendId: string,
  add: { created: number; failed: number; at: string },
) {
  await db
    .updateTable('bulk_sends')
    .set((eb) => ({
      created: eb('created', '+', add.created),
      failed: eb('failed', '+', add.failed),
      updated_at: add.at,
    }))
    .where('id', '=', bulkSendId)
    .execute();
}

/** The next `limit` pending rows, by row number. */
export function nextPendingRows(db: DbOrTrx, bulkSendId: string, limit: number) {
  return db
    .selectFrom('bulk_send_rows')
    .select(['row_number', 'input'])
    .where('bulk_send_id', '=', bulkSendId)
    .where('status', '=', 'pending')
    .orderBy('row_number')
    .limit(limit)
    .execute();
}

/**
 * Compare-and-set of rows from `pending` to `created`: the row numbers this transaction now
 * owns. A row another transaction took is left out; on PostgreSQL that transaction holds the
 * row until it ends, and the update then finds it no longer pending.
 */
export async function claimRows(
  db: DbOrTrx,
  input: { bulkSendId: string; rowNumbers: number[]; at: string },
): Promise<Set<number>> {
  const claimed = await db
    .updateTable('bulk_send_rows')
    .set({ status: 'created', input: null, updated_at: input.at })
    .where('bulk_send_id', '=', input.bulkSendId)
    .where('row_number', 'in', input.rowNumbers)
    .where('status', '=', 'pending')
    .returning('row_number')
    .execute();
  return new Set(claimed.map((r) => r.row_number));
}

/** Records the document each claimed row became, in one statement. */
export async function setDocumentIds(
  db: DbOrTrx,
  bulkSendId: string,
  documents: Array<{ row: number; documentId: string }>,
) {
  if (documents.length === 0) return;
  await db
    .updateTable('bulk_send_rows')
    .set((eb) => {
      let byRow = eb.case('row_number').when(documents[0].row).then(documents[0].documentId);
      for (const d of documents.slice(1)) byRow = byRow.when(d.row).then(d.documentId);
      return { document_id: byRow.end() };
    })
    .where('bulk_send_id', '=', bulkSendId)
    .where(
      'row_number',
      'in',
      documents.map((d) => d.row),
    )
    .execute();
}

/** Compare-and-set of one row from `pending` to `failed`; true when this call did it. */
export async function failRow(
  db: DbOrTrx,
  input: { bulkSendId: string; row: number; error: string; at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('bulk_send_rows')
    .set({ status: 'failed', input: null, error: input.error, updated_at: input.at })
    .where('bulk_send_id', '=', input.bulkSendId)
    .where('row_number', '=', input.row)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many rows of a bulk send have each status. */
export async function countRows(db: DbOrTrx, bulkSendId: string) {
  const rows = await db
    .selectFrom('bulk_send_rows')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
    .where('bulk_send_id', '=', bulkSendId)
    .groupBy('status')
    .execute();
  const counts = { pending: 0, created: 0, failed: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

/** A page of a bulk send's rows after row number `after`, in row order. */
export function listRows(
  db: DbOrTrx,
  input: {
    bulkSendId: string;
    status?: BulkRowRecord['status'];
    after?: number;
    limit: number;
  },
) {
  let query = db
    .selectFrom('bulk_send_rows')
    .select(['row_number', 'status', 'error', 'document_id'])
    .where('bulk_send_id', '=', input.bulkSendId);
  if (input.status) query = query.where('status', '=', input.status);
  if (input.after !== undefined) query = query.where('row_number', '>', input.after);
  return query.orderBy('row_number').limit(input.limit).execute();
}

/** A page of a template's bulk sends in a tenant, newest first. */
export function listBulkSends(
  db: DbOrTrx,
  input: { tenantId: string; templateId: string; after?: Cursor; limit: number },
) {
  let query = db
    .selectFrom('bulk_sends')
    .selectAll()
    .where('tenant_id', '=', input.tenantId)
    .where('template_id', '=', input.templateId);
  if (input.after) {
    const { createdAt, id } = input.after;
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(createdAt, id)));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(input.limit).execute();
}

/**
 * E-mails the tenant has queued today (UTC) against its daily quota: the count
 * mail.service.ts countTenantEmails keeps, read without taking its row.
 */
export async function tenantMailToday(db: DbOrTrx, tenantId: string, day: string) {
  const row = await db
    .selectFrom('tenant_mail_counts')
    .select('count')
    .where('tenant_id', '=', tenantId)
    .where('day', '=', day)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * Deletes the job row of a run that is still this run's (same claim: its `attempts`); false
 * when another process took the job over after its lease expired.
 */
export async function deleteOwnJob(db: DbOrTrx, job: { id: string; attempts: number }) {
  const result = await db
    .deleteFrom('jobs')
    .where('id', '=', job.id)
    .where('attempts', '=', job.attempts)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
