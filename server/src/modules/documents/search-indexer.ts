import { sql } from 'kysely';
import type { Db, DbOrTrx } from '../../db/handle.js';

/** How often the SQLite search index takes in the documents changed since its last batch. */
export const SEARCH_INDEX_INTERVAL_MS = 1000;

/**
 * Indexes the documents whose search text changed since the last batch (SQLite only): their
 * old entries out, their current text in, in one transaction. Searches read the pending rows
 * besides the index, so a document is found before its batch runs.
 */
export async function indexPendingSearchText(db: DbOrTrx): Promise<number> {
  const pending = await sql<{ n: number }>`
    select count(*) as n from documents_search_pending`.execute(db);
  if (Number(pending.rows[0]?.n ?? 0) === 0) return 0;
  return db.transaction().execute(async (trx) => {
    await sql`delete from documents_search
      where rowid in (select doc_rowid from documents_search_pending)`.execute(trx);
    await sql`insert into documents_search(rowid, search_text)
      select d.rowid, d.search_text from documents_search_pending p
      join documents d on d.rowid = p.doc_rowid`.execute(trx);
    const done = await sql`delete from documents_search_pending`.execute(trx);
    return Number(done.numAffectedRows ?? 0);
  });
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
