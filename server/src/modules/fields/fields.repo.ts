import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../db/handle.js';
import { preparedQuery } from '../../db/prepared.js';
import type { FieldsTable } from '../../db/schema.js';

/** A field row. */
export type FieldRow = Selectable<FieldsTable>;

const insertFieldRows = preparedQuery((q, p: { rows: FieldRow[] }) =>
  q.insertInto('fields').values(p.rows),
);
// Rows per statement: bounds the parameters bound (SQLite takes 32,766) and the number of
// statement shapes the prepared query keeps (one per row count).
const ROWS_PER_INSERT = 100;

/** Inserts fields. */
export async function insertFields(db: DbOrTrx, rows: FieldRow[]) {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await insertFieldRows(db, { rows: rows.slice(i, i + ROWS_PER_INSERT) });
  }
}

/** A document's fields in their input order. */
export function listFields(db: DbOrTrx, documentId: string) {
  return db
    .selectFrom('fields')
    .selectAll()
    .where('document_id', '=', documentId)
    .orderBy('position')
    .execute();
}

/** Removes every field of a document. */
export async function deleteFields(db: DbOrTrx, documentId: string) {
  await db.deleteFrom('fields').where('document_id', '=', documentId).execute();
}

/** Removes the fields placed for a signee; how many there were. */
export async function deleteSigneeFields(db: DbOrTrx, signeeId: string): Promise<number> {
  const result = await db.deleteFrom('fields').where('signee_id', '=', signeeId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Writes a field's value. */
export async function fillField(
  db: DbOrTrx,
  input: { fieldId: string; value: string | boolean | null; at: string },
) {
  await db
    .updateTable('fields')
    .set({
      value: input.value === null ? null : JSON.stringify(input.value),
      filled_at: input.value === null ? null : input.at,
    })
    .where('id', '=', input.fieldId)
    .execute();
}

/** Stores the pages' displayed sizes read from a document's file. */
export async function savePageSizes(
  db: DbOrTrx,
  documentId: string,
  pages: Array<{ width: number; height: number }>,
) {
  await db
    .updateTable('documents')
    .set({ page_sizes: JSON.stringify(pages) })
    .where('id', '=', documentId)
    .execute();
}
