import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../db/handle.js';
import type { FieldsTable } from '../../db/schema.js';

/** A field row. */
export type FieldRow = Selectable<FieldsTable>;

/** Inserts fields (in chunks: SQLite binds at most 32,766 parameters a statement). */
export async function insertFields(db: DbOrTrx, rows: FieldRow[]) {
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('fields')
      .values(rows.slice(i, i + 500))
      .execute();
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
