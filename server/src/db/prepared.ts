import { SelectQueryNode, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { DbOrTrx } from '../jobs/queue.js';
import type { Database } from './schema.js';

// A string no caller's value can be: it marks where a named value goes in the compiled query.
const MARK = '\u0000signet:';

type Prepared<O> = { query: CompiledQuery<O>; slots: Array<string | null>; select: boolean };

/** A synchronous read-only connection that runs a SELECT's SQL. */
export type DirectReader = {
  prepare: (sql: string) => { all: (values: unknown[]) => unknown[] };
  /**
   * The database's version as of the current snapshot: SQLite's `PRAGMA data_version`, which
   * changes exactly when another connection (of this process or any other) has committed. It
   * is asked once per snapshot, and `refresh` starts a new one.
   */
  version: () => number;
  refresh: () => void;
};

const directReaders = new WeakMap<object, DirectReader>();
// Readers whose snapshot was renewed in the current turn of the event loop.
const renewedThisTurn = new Set<DirectReader>();

/**
 * Starts a new read snapshot for `db`'s direct reads, at most once per turn of the event loop:
 * the next read asks SQLite whether anything was committed meanwhile. Called when a request
 * arrives, so a request sees every commit made before the turn in which it was read, another
 * process's included; the requests read in one turn (under load, dozens) share one check, which
 * costs two file-lock system calls. Our own writes start a new snapshot at once, whatever the turn.
 */
export function refreshDirectReads(db: Kysely<Database>) {
  const reader = directReaders.get(db);
  if (!reader || renewedThisTurn.has(reader)) return;
  reader.refresh();
  if (renewedThisTurn.size === 0) setImmediate(() => renewedThisTurn.clear());
  renewedThisTurn.add(reader);
}

// Answers of direct reads, valid while the database's data_version stays the same. Bounded by
// starting over when full: the hot entries (the keys and memberships in use) come back at once.
const ANSWER_CACHE_SIZE = 2000;
type Answers = { version: number; rows: Map<string, unknown[]> };

/**
 * Lets prepared SELECTs on `db` itself (not in a transaction) run on `reader` synchronously.
 * On SQLite, a query through Kysely waits its turn on the one connection behind a promise chain;
 * under load that cost as much as the rest of a request.
 */
export function useDirectReads(db: Kysely<Database>, reader: DirectReader) {
  directReaders.set(db, reader);
}

/**
 * A query built and compiled once per engine, then run with new values each call. Kysely's
 * builder and compiler cost two to three times what SQLite spends executing a point lookup, so
 * the queries on every request's path (API key or session, membership) skip them.
 *
 * `build` receives stand-ins for the named values and must use each only as a plain value
 * (`where(col, '=', p.x)`, `set({ col: p.x })`); the query's shape may not depend on a value.
 */
export function preparedQuery<P extends Record<string, unknown>, O>(
  build: (db: Kysely<Database>, values: P) => Compilable<O>,
) {
  const stand = new Proxy({} as P, { get: (_target, name) => `${MARK}${String(name)}` });
  // Keyed by the dialect's adapter: the SQL differs between SQLite and PostgreSQL, and a
  // transaction shares its database's adapter.
  const cache = new WeakMap<object, Prepared<O>>();
  const answers = new WeakMap<DirectReader, Answers>();
  return async (db: DbOrTrx, values: P): Promise<O[]> => {
    const adapter = db.getExecutor().adapter;
    let prepared = cache.get(adapter);
    if (!prepared) {
      const query = build(db, stand).compile();
      const slots = query.parameters.map((p) =>
        typeof p === 'string' && p.startsWith(MARK) ? p.slice(MARK.length) : null,
      );
      if (!slots.some((s) => s !== null) && Object.keys(values).length > 0) {
        throw new Error(`prepared query uses none of its values: ${query.sql}`);
      }
      prepared = { query, slots, select: SelectQueryNode.is(query.query) };
      cache.set(adapter, prepared);
    }
    const { query, slots } = prepared;
    const parameters = query.parameters.map((p, i) => {
      const slot = slots[i];
      return slot === null ? p : values[slot];
    });
    const reader = prepared.select ? directReaders.get(db) : undefined;
    if (reader) return readDirect(reader, answers, query.sql, parameters) as O[];
    return (await db.executeQuery<O>({ ...query, parameters })).rows;
  };
}

/**
 * Runs a SELECT on the read-only connection, or answers it from the rows the same query and
 * values gave while nothing has been committed since: then a fresh read would return exactly
 * those rows, so a revoked key or a removed member is refused by the very next request. On a
 * read-mostly path (authentication, membership) this skips SQLite's B-tree walks for the cost
 * of one pragma per request. The cached rows are frozen: callers share them.
 */
function readDirect(
  reader: DirectReader,
  answers: WeakMap<DirectReader, Answers>,
  sql: string,
  parameters: readonly unknown[],
): unknown[] {
  const version = reader.version();
  let cache = answers.get(reader);
  if (!cache || cache.version !== version || cache.rows.size >= ANSWER_CACHE_SIZE) {
    cache = { version, rows: new Map() };
    answers.set(reader, cache);
  }
  const key = JSON.stringify(parameters);
  let rows = cache.rows.get(key);
  if (!rows) {
    rows = reader
      .prepare(sql)
      .all(parameters as unknown[])
      .map((row) => Object.freeze(row));
    Object.freeze(rows);
    cache.rows.set(key, rows);
  }
  return rows;
}
