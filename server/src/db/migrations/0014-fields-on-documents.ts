import type { Kysely } from 'kysely';

// A field as 0013 kept it in document_fields: 0008's row but document_id, with options, value
// and tag_box JSON-encoded strings and required 1 or 0.
type SetField = {
  id: string;
  signee_id: string;
  position: number;
  type: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: number;
  label: string | null;
  options: string | null;
  value: string | null;
  tag_box: string | null;
  filled_at: string | null;
  created_at: string;
};

// A field as this migration keeps it in documents.fields: the same facts, values as they are,
// and only the keys that say something (no nulls, `required` only when true, the position is
// its place in the array, the time it was made the document's or its last change's).
type CompactField = {
  id: string;
  signee_id: string;
  type: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required?: true;
  label?: string;
  options?: string[];
  value?: string | boolean;
  tag_box?: { x: number; y: number; width: number; height: number };
  filled_at?: string;
};

type MigrationDb = {
  documents: { id: string; created_at: string; fields: string | null };
  document_fields: { document_id: string; fields: string };
};

const BATCH = 500;

function compact(f: SetField): CompactField {
  const field: CompactField = {
    id: f.id,
    signee_id: f.signee_id,
    type: f.type,
    page: f.page,
    x: f.x,
    y: f.y,
    width: f.width,
    height: f.height,
  };
  if (f.required) field.required = true;
  if (f.label !== null) field.label = f.label;
  if (f.options !== null) field.options = JSON.parse(f.options) as string[];
  if (f.value !== null) field.value = JSON.parse(f.value) as string | boolean;
  if (f.tag_box !== null) field.tag_box = JSON.parse(f.tag_box) as CompactField['tag_box'];
  if (f.filled_at !== null) field.filled_at = f.filled_at;
  return field;
}

function expand(f: CompactField, position: number, createdAt: string): SetField {
  return {
    id: f.id,
    signee_id: f.signee_id,
    position,
    type: f.type,
    page: f.page,
    x: f.x,
    y: f.y,
    width: f.width,
    height: f.height,
    required: f.required ? 1 : 0,
    label: f.label ?? null,
    options: f.options ? JSON.stringify(f.options) : null,
    value: f.value === undefined ? null : JSON.stringify(f.value),
    tag_box: f.tag_box ? JSON.stringify(f.tag_box) : null,
    filled_at: f.filled_at ?? null,
    created_at: createdAt,
  };
}

/**
 * A document's fields in a column of its own row, in a compact JSON form, instead of a row of
 * document_fields (0013). A commit that writes a second table touches two more B-trees (its
 * table and its key's index): on SQLite, a quick-create with twenty fields spent 110 µs more in
 * the database than one without, against about 30 µs with the set in the document's row at
 * 60% of the size (bench/fields.bench.ts, issue 24). Existing fields move over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Last in the row: a read of the other columns never loads it (SQLite keeps a long value
  // on overflow pages, PostgreSQL in TOAST), and every document read names its columns.
  await db.schema.alterTable('documents').addColumn('fields', 'text').execute();
  const typed = db as unknown as Kysely<MigrationDb>;
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
    for (const set of sets) {
      const fields = (JSON.parse(set.fields) as SetField[])
        .sort((a, b) => a.position - b.position)
        .map(compact);
      await typed
        .updateTable('documents')
        .set({ fields: fields.length > 0 ? JSON.stringify(fields) : null })
        .where('id', '=', set.document_id)
        .execute();
    }
    after = sets.at(-1)!.document_id;
  }
  await db.schema.dropTable('document_fields').execute();
}

/** Puts the fields back into a document_fields row each document. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_fields')
    .addColumn('document_id', 'text', (c) =>
      c.primaryKey().references('documents.id').onDelete('cascade'),
    )
    .addColumn('fields', 'text', (c) => c.notNull())
    .execute();
  const typed = db as unknown as Kysely<MigrationDb>;
  let after = '';
  for (;;) {
    const documents = await typed
      .selectFrom('documents')
      .select(['id', 'created_at', 'fields'])
      .where('fields', 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (documents.length === 0) break;
    await typed
      .insertInto('document_fields')
      .values(
        documents.map((d) => ({
          document_id: d.id,
          fields: JSON.stringify(
            (JSON.parse(d.fields!) as CompactField[]).map((f, i) => expand(f, i, d.created_at)),
          ),
        })),
      )
      .execute();
    after = documents.at(-1)!.id;
  }
  await db.schema.alterTable('documents').dropColumn('fields').execute();
}
