import type { Kysely } from 'kysely';

// The columns of a field (0008-fields), in the order they were stored.
const FIELD_COLUMNS = [
  'id',
  'signee_id',
  'position',
  'type',
  'page',
  'x',
  'y',
  'width',
  'height',
  'required',
  'label',
  'options',
  'value',
  'tag_box',
  'filled_at',
  'created_at',
] as const;

type StoredField = Record<(typeof FIELD_COLUMNS)[number], unknown>;
type FieldsDb = {
  fields: StoredField & { document_id: string };
  document_fields: { document_id: string; fields: string };
};

const BATCH = 500;

/**
 * A document's fields as one JSON array in one row, instead of a row each (0008). Fields are
 * written and read together, a document's whole set at a time: quick-create, `PUT …/fields`,
 * the signing page, a signature, the seal. One row costs a quick-create with twenty fields a
 * fifth of the database time twenty rows did (three B-trees and two foreign keys per row), and
 * makes signing's read-modify-write one statement each way. Existing fields move over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_fields')
    .addColumn('document_id', 'text', (c) =>
      c.primaryKey().references('documents.id').onDelete('cascade'),
    )
    // JSON: the fields in their order, each with the columns 0008 gave a row but document_id.
    .addColumn('fields', 'text', (c) => c.notNull())
    .execute();
  const typed = db as unknown as Kysely<FieldsDb>;
  let after = '';
  for (;;) {
    const ids = await typed
      .selectFrom('fields')
      .select('document_id')
      .distinct()
      .where('document_id', '>', after)
      .orderBy('document_id')
      .limit(BATCH)
      .execute();
    if (ids.length === 0) break;
    const rows = await typed
      .selectFrom('fields')
      .selectAll()
      .where(
        'document_id',
        'in',
        ids.map((r) => r.document_id),
      )
      .orderBy('document_id')
      .orderBy('position')
      .execute();
    const byDocument = new Map<string, StoredField[]>();
    for (const { document_id, ...row } of rows) {
      const stored = Object.fromEntries(FIELD_COLUMNS.map((c) => [c, row[c]])) as StoredField;
      const list = byDocument.get(document_id);
      if (list) list.push(stored);
      else byDocument.set(document_id, [stored]);
    }
    await typed
      .insertInto('document_fields')
      .values(
        [...byDocument].map(([id, fields]) => ({
          document_id: id,
          fields: JSON.stringify(fields),
        })),
      )
      .execute();
    after = ids.at(-1)!.document_id;
  }
  await db.schema.dropTable('fields').execute();
}

/** Puts the fields back into a row each. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fields')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) =>
      c.notNull().references('documents.id').onDelete('cascade'),
    )
    .addColumn('signee_id', 'text', (c) => c.notNull().references('signees.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('x', 'double precision', (c) => c.notNull())
    .addColumn('y', 'double precision', (c) => c.notNull())
    .addColumn('width', 'double precision', (c) => c.notNull())
    .addColumn('height', 'double precision', (c) => c.notNull())
    .addColumn('required', 'integer', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('options', 'text')
    .addColumn('value', 'text')
    .addColumn('tag_box', 'text')
    .addColumn('filled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fields_document_idx')
    .on('fields')
    .columns(['document_id', 'position'])
    .execute();
  const typed = db as unknown as Kysely<FieldsDb>;
  let after = '';
  for (;;) {
    const sets = await typed
      .selectFrom('document_fields')
      .selectAll()
      .where('document_id', '>', after)
      .orderBy('document_id')
      .limit(BATCH)
      .execute();
    if (sets.length === 0) break;
    const rows = sets.flatMap((set) =>
      (JSON.parse(set.fields) as StoredField[]).map((f) => ({
        ...f,
        document_id: set.document_id,
      })),
    );
    // Rows per statement: SQLite binds at most 32,766 parameters.
    for (let i = 0; i < rows.length; i += 1000) {
      await typed
        .insertInto('fields')
        .values(rows.slice(i, i + 1000))
        .execute();
    }
    after = sets.at(-1)!.document_id;
  }
  await db.schema.dropTable('document_fields').execute();
}
