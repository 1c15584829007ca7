import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { insertSearchTokens, type SearchRow } from '../../modules/documents/search-indexer.js';

/**
 * Issue 45: the listing's search index keyed by tenant, and copy links' downloads counted.
 *
 * The search index, keyed by tenant: the index of 0010 was one for all
 * tenants, so asking it for a term found only in another tenant's documents cost more than
 * asking for a term found nowhere, and a caller could time whether someone else's signee
 * exists. Now the index is entered through the tenant, so another tenant's rows are never
 * read.
 *
 * - PostgreSQL: a GIN index over `documents_search_keys(tenant_id, search_text)`, the text's
 *   trigrams each prefixed with the tenant id; a search asks for its own tenant's keys only.
 *   Plain SQL, so pg_trgm is no longer needed; its index of 0010 is dropped.
 * - SQLite: the FTS5 table holds, instead of the text under the trigram tokenizer, one token
 *   per trigram made of the tenant's tag and the trigram (search-text.ts tenantSearchTokens),
 *   so a tenant's terms and their doclists are its own. Filled here in batches of 1,000.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Copy links count their downloads and remember when one was last put in the audit trail, so
  // that a link fetched in a loop writes one audit row an hour, not one per request.
  await db.schema
    .alterTable('copy_links')
    .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('copy_links').addColumn('audited_at', 'text').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Not inlinable (it has a FROM), so a query naming it matches the index's expression.
    // Repeats are left in: GIN keeps each key once. About 80 µs for an 85-character text on a
    // loaded 2-core machine, where pg_trgm's show_trgm takes 17 µs: paid on each write of a
    // document row that must update its indexes.
    await sql`create or replace function documents_search_keys(tenant_id text, search_text text)
      returns text[] language sql immutable strict parallel safe as $$
        select array(select tenant_id || substr(search_text, i, 3)
          from generate_series(1, char_length(search_text) - 2) as i)
      $$`.execute(db);
    await sql`create index documents_search_keys_idx on documents
      using gin (documents_search_keys(tenant_id, search_text))`.execute(db);
    await sql`drop index if exists documents_search_trgm_idx`.execute(db);
    return;
  }
  // The pending table and its triggers of 0010 stay: only what the index holds changes.
  await sql`drop table if exists documents_search`.execute(db);
  await sql`create virtual table documents_search using fts5(
    search_tokens, content='', contentless_delete=1, tokenize='ascii')`.execute(db);
  let after = 0;
  for (;;) {
    const rows = (
      await sql<SearchRow>`select rowid, tenant_id, search_text from documents
        where rowid > ${after} order by rowid limit 1000`.execute(db)
    ).rows;
    if (rows.length === 0) return;
    await insertSearchTokens(db, rows);
    after = rows[rows.length - 1].rowid;
  }
}

/** Puts back the one search index for all tenants of 0010, and copy links as they were. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('copy_links').dropColumn('audited_at').execute();
  await db.schema.alterTable('copy_links').dropColumn('downloads').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index if exists documents_search_keys_idx`.execute(db);
    await sql`drop function if exists documents_search_keys(text, text)`.execute(db);
    const available = await sql<{ n: number }>`
      select count(*)::int as n from pg_available_extensions where name = 'pg_trgm'`.execute(db);
    if ((available.rows[0]?.n ?? 0) > 0) {
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index if not exists documents_search_trgm_idx on documents
        using gin (search_text gin_trgm_ops)`.execute(db);
    }
    return;
  }
  await sql`drop table if exists documents_search`.execute(db);
  await sql`create virtual table documents_search using fts5(
    search_text, content='', contentless_delete=1, tokenize='trigram')`.execute(db);
  await sql`insert into documents_search(rowid, search_text)
    select rowid, search_text from documents`.execute(db);
}
