import { sql, type QueryExecutorProvider } from 'kysely';
import type { Db, DbOrTrx } from '../../db/handle.js';
import { tenantSearchTokens } from './search-text.js';

/** How often the SQLite search index takes in the documents changed since its last batch. */
export const SEARCH_INDEX_INTERVAL_MS = 1000;

/**
 * Indexes the documents whose search text changed since the last batch (SQLite only): their
 * old entries out, their current tokens in (search-text.ts tenantSearchTokens), in one
 * transaction. Searches read the pending rows besides the index, so a document is found before
 * its batch runs.
 */
export async function indexPendingSearchText(db: DbOrTrx): Promise<number> {
  const pending = await sql<{ n: number }>`
    select count(*) as n from documents_search_pending`.execute(db);
  if (Number(pending.rows[0]?.n ?? 0) === 0) return 0;
  return db.transaction().execute(async (trx) => {
    await sql`delete from documents_search
      where rowid in (select doc_rowid from documents_search_pending)`.execute(trx);
    const rows = await sql<SearchRow>`
      select d.rowid as rowid, d.tenant_id, d.search_text from documents_search_pending p
      join documents d on d.rowid = p.doc_rowid`.execute(trx);
    await insertSearchTokens(trx, rows.rows);
    const done = await sql`delete from documents_search_pending`.execute(trx);
    return Number(done.numAffectedRows ?? 0);
  });
}

/** A document as the search index takes it in. */
export type SearchRow = { rowid: number; tenant_id: string; search_text: string };

/** Adds documents' tokens to SQLite's search index (entries by document rowid). */
export async function insertSearchTokens(db: QueryExecutorProvider, rows: SearchRow[]) {
  for (let i = 0; i < rows.length; i += 200) {
    const values = rows
      .slice(i, i + 200)
      .map((r) => sql`(${r.rowid}, ${tenantSearchTokens(r.tenant_id, r.search_text)})`);
    await sql`insert into documents_search(rowid, search_tokens)
      values ${sql.join(values)}`.execute(db);
  }
}

/** Runs indexPendingSearchText every SEARCH_INDEX_INTERVAL_MS on SQLite; returns its stop. */
export function startSearchIndexer(db: Db, onError: (err: unknown) => void): () => Promise<void> {
  if (db.engine !== 'sqlite') return async () => {};
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = indexPendingSearchText(db.kysely).catch(onError);
  }, SEARCH_INDEX_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
