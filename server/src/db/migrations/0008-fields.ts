import type { Kysely } from 'kysely';

/**
 * Fields placed on a document's own pages (decisions §8), the pages' displayed sizes they are
 * checked against, and the initials a signee adopts beside their signature.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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
    // JSON: the dropdown's options; the value (a string, or a boolean for a checkbox).
    .addColumn('options', 'text')
    .addColumn('value', 'text')
    // JSON {x, y, width, height}: the text tag the field came from, painted over at sealing.
    .addColumn('tag_box', 'text')
    .addColumn('filled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fields_document_idx')
    .on('fields')
    .columns(['document_id', 'position'])
    .execute();
  // JSON [{width, height}]: each page as displayed, read once from the file.
  await db.schema.alterTable('documents').addColumn('page_sizes', 'text').execute();
  await db.schema.alterTable('signees').addColumn('initials_file', 'text').execute();
  await db.schema.alterTable('signees').addColumn('initials_typed', 'text').execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fields').execute();
  await db.schema.alterTable('documents').dropColumn('page_sizes').execute();
  await db.schema.alterTable('signees').dropColumn('initials_file').execute();
  await db.schema.alterTable('signees').dropColumn('initials_typed').execute();
}
