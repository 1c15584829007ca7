import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { searchTextOf } from '../../modules/documents/search-text.js';

/**
 * Organising documents (decisions §9): folders per tenant, and the indexes behind the listing's
 * `folderId`, `pinned=true` and `q` filters. `q` searches `documents.search_text` (the name and
 * every signee's name and e-mail, folded, kept up to date by the service): PostgreSQL with a
 * pg_trgm GIN index, SQLite with an FTS5 trigram index filled in batches (search-indexer.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('folders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.references('folders.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('folders_tenant_parent_idx')
    .on('folders')
    .columns(['tenant_id', 'parent_id'])
    .execute();
  await db.schema.createIndex('folders_parent_idx').on('folders').column('parent_id').execute();

  // A folder's documents, newest first (a folder belongs to one tenant).
  await db.schema
    .createIndex('documents_folder_created_idx')
    .on('documents')
    .columns(['folder_id', 'created_at', 'id'])
    .where(sql.ref('folder_id'), 'is not', null)
    .execute();
  // Pinned documents, newest first: few per tenant, so a partial index.
  await db.schema
    .createIndex('documents_tenant_pinned_idx')
    .on('documents')
    .columns(['tenant_id', 'created_at', 'id'])
    .where(sql.ref('pinned'), 'is not', null)
    .execute();

  await db.schema
    .alterTable('documents')
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await backfillSearchText(db);
  if (postgres) {
    // pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it. Where it
    // is missing, `q` still works, by a scan of the tenant's documents.
    const available = await sql<{ n: number }>`
      select count(*)::int as n from pg_available_extensions where name = 'pg_trgm'`.execute(db);
    if ((available.rows[0]?.n ?? 0) > 0) {
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index documents_search_trgm_idx on documents
        using gin (search_text gin_trgm_ops)`.execute(db);
    }
  } else {
    // Contentless (rows are deleted by rowid alone), keyed by the documents' rowid, and filled
    // in batches: a document's rowid goes to documents_search_pending when its text changes,
    // and search-indexer.ts indexes the batch. An FTS5 write per request would cost a segment
    // per commit (about 130 µs of every quick-create); searches read the pending rows besides.
    await sql`create virtual table documents_search using fts5(
      search_text, content='', contentless_delete=1, tokenize='trigram')`.execute(db);
    await sql`insert into documents_search(rowid, search_text)
      select rowid, search_text from documents`.execute(db);
    await sql`create table documents_search_pending (doc_rowid integer primary key)`.execute(db);
    for (const [event, row] of [
      ['insert', 'new'],
      ['update of search_text', 'new'],
      ['delete', 'old'],
    ] as const) {
      await sql`create trigger ${sql.raw(`documents_search_${event.split(' ')[0]}`)}
        after ${sql.raw(event)} on documents begin
          insert or ignore into documents_search_pending values (${sql.raw(row)}.rowid);
        end`.execute(db);
    }
  }
}

// Documents made before this migration get their search text, a thousand at a time.
async function backfillSearchText(db: Kysely<unknown>) {
  type Row = { id: string; name: string };
  let after = '';
  for (;;) {
    const documents = (
      await sql<Row>`select id, name from documents where id > ${after} order by id limit 1000`.execute(
        db,
      )
    ).rows;
    if (documents.length === 0) return;
    const ids = documents.map((d) => d.id);
    const signees = (
      await sql<{ document_id: string; name: string; email: string }>`
        select document_id, name, email from signees
        where document_id in (${sql.join(ids)}) order by position`.execute(db)
    ).rows;
    for (const d of documents) {
      const text = searchTextOf(
        d.name,
        signees.filter((s) => s.document_id === d.id),
      );
      await sql`update documents set search_text = ${text} where id = ${d.id}`.execute(db);
    }
    after = ids[ids.length - 1];
  }
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop index if exists documents_search_trgm_idx`.execute(db);
  } else {
    for (const t of ['insert', 'delete', 'update']) {
      await sql`drop trigger if exists ${sql.raw(`documents_search_${t}`)}`.execute(db);
    }
    await sql`drop table if exists documents_search_pending`.execute(db);
    await sql`drop table if exists documents_search`.execute(db);
  }
  await db.schema.alterTable('documents').dropColumn('search_text').execute();
  await db.schema.dropIndex('documents_tenant_pinned_idx').execute();
  await db.schema.dropIndex('documents_folder_created_idx').execute();
  // No document may name a folder that is gone.
  await sql`update documents set folder_id = null where folder_id is not null`.execute(db);
  await db.schema.dropTable('folders').execute();
}
