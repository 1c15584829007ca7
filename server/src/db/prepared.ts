import { SelectQueryNode, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { DbOrTrx } from '../jobs/queue.js';
import type { Database } from './schema.js';

// A string no caller's value can be: it marks where a named value goes in the compiled query.
const MARK = '\u0000signet:';

type Prepared<O> = { query: CompiledQuery<O>; slots: Array<string | null>; select: boolean };

/** A synchronous connection that runs a SELECT's SQL (better-sqlite3's Database is one). */
export type DirectReader = { prepare: (sql: string) => { all: (values: unknown[]) => unknown[] } };

const directReaders = new WeakMap<object, DirectReader>();

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
    if (reader) return reader.prepare(query.sql).all(parameters) as O[];
    return (await db.executeQuery<O>({ ...query, parameters })).rows;
  };
}
