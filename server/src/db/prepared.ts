import { SelectQueryNode, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import { markDeferred } from './deferred-writes.js';
import type { DbOrTrx } from './handle.js';
import type { Database } from './schema.js';

// A string no caller's value can be: it marks where a named value goes in the compiled query.
const MARK = '\u0000signet:';

// Where each parameter of a compiled query comes from: a named value, an item of a list value,
// or a field of an item; null for a constant of the query.
type Slot = { name: string; index?: number; field?: string } | null;
type Prepared<O> = { query: CompiledQuery<O>; slots: Slot[]; select: boolean };

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
 * A value may be an object whose fields are plain values: a whole row (`values(p.row)`) or some
 * of its fields (`set({ a: p.row.a })`). It may be a list, of plain values
 * (`where(col, 'in', p.ids)`) or of such objects (`values(p.rows)`): the query is then compiled
 * once per list length and set of fields (the batches of the job runner and the webhook
 * attempts, a document's signees).
 */
export function preparedQuery<P extends Record<string, unknown>, O>(
  build: (db: Kysely<Database>, values: P) => Compilable<O>,
  /** `deferred`: a write whose answer nobody reads (db/deferred-writes.ts). */
  options: { deferred?: boolean } = {},
) {
  // Keyed by the dialect's adapter: the SQL differs between SQLite and PostgreSQL, and a
  // transaction shares its database's adapter. Then by the lengths of the list values.
  const cache = new WeakMap<object, Map<string, Prepared<O>>>();
  const answers = new WeakMap<DirectReader, Answers>();
  return async (db: DbOrTrx, values: P): Promise<O[]> => {
    const adapter = db.getExecutor().adapter;
    let shapes = cache.get(adapter);
    if (!shapes) cache.set(adapter, (shapes = new Map()));
    const shape = shapeOf(values);
    let prepared = shapes.get(shape);
    if (!prepared) {
      const query = build(db, standIns(values)).compile();
      const slots = query.parameters.map(slotOf);
      if (!slots.some((s) => s !== null) && Object.keys(values).length > 0) {
        throw new Error(`prepared query uses none of its values: ${query.sql}`);
      }
      prepared = { query, slots, select: SelectQueryNode.is(query.query) };
      nameStatement(query.sql);
      // Bounded: a caller with ever new list lengths starts over rather than grow it.
      if (shapes.size >= SHAPES_PER_QUERY) shapes.clear();
      shapes.set(shape, prepared);
    }
    const { query, slots } = prepared;
    const parameters = query.parameters.map((p, i) => {
      const slot = slots[i];
      if (slot === null) return p;
      const value = values[slot.name];
      const item = slot.index === undefined ? value : (value as unknown[])[slot.index];
      return slot.field === undefined ? item : (item as Record<string, unknown>)[slot.field];
    });
    const reader = prepared.select ? directReaders.get(db) : undefined;
    if (reader) return readDirect(reader, answers, query.sql, parameters) as O[];
    const compiled = { ...query, parameters };
    if (!options.deferred) return (await db.executeQuery<O>(compiled)).rows;
    await db.executeQuery(markDeferred(db, compiled));
    return [];
  };
}

const SHAPES_PER_QUERY = 256;

// The SQL of prepared queries, and of every other statement with parameters, and the name each
// runs under as a server-side prepared statement (PostgreSQL, db/postgres.ts): parsed and planned
// once per connection instead of every call, which halved the server's CPU per statement.
// Bounded: each name costs every connection a plan, and the queries on the hot path are far
// fewer; past the bound a statement runs unnamed, as before.
const statementNames = new Map<string, string>();
const MAX_NAMED_STATEMENTS = 500;
let nextStatement = 1;

/** Names `sql` (while names are left) and returns its name, or undefined. */
export function nameStatement(sql: string): string | undefined {
  if (statementNames.size < MAX_NAMED_STATEMENTS && !statementNames.has(sql)) {
    statementNames.set(sql, `signet_${nextStatement++}`);
  }
  return statementNames.get(sql);
}

/** The prepared statement's name a prepared query's SQL runs under, or undefined. */
export function statementNameOf(sql: string): string | undefined {
  return statementNames.get(sql);
}

/**
 * Gives a statement a new name, so that every connection prepares it again: its plan no longer
 * fits the table (a column added by a newer version's migration changes what `*` returns).
 */
export function renameStatement(sql: string) {
  if (statementNames.has(sql)) statementNames.set(sql, `signet_${nextStatement++}`);
}

// An object value (a row), as opposed to a plain value: a string, number, null, Date or Buffer.
function isRow(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Buffer.isBuffer(value) &&
    !(value instanceof Date)
  );
}

// The lengths of a call's list values and the fields of its rows: calls with the same shape
// share a compiled query.
function shapeOf(values: Record<string, unknown>): string {
  let shape = '';
  for (const name in values) {
    const value = values[name];
    if (Array.isArray(value)) {
      shape += `${name}:${value.length};`;
      for (const item of value) if (isRow(item)) shape += `${Object.keys(item).join()};`;
    } else if (isRow(value)) shape += `${name}{${Object.keys(value).join()}};`;
  }
  return shape;
}

// Stand-ins for `values`: a marked string per plain value, per list item, or per field of a row.
// Marks are opaque strings, so the builder treats them as values. A row's stand-in has the row's
// own fields, so the builder can take it whole.
function standIns<P extends Record<string, unknown>>(values: P): P {
  const row = (value: Record<string, unknown>, mark: string) =>
    Object.fromEntries(Object.keys(value).map((field) => [field, `${mark}\u0002${field}`]));
  return new Proxy({} as P, {
    get: (_target, property) => {
      const name = String(property);
      const value = values[name];
      if (isRow(value) && !Array.isArray(value)) return row(value, `${MARK}${name}`);
      if (!Array.isArray(value)) return `${MARK}${name}`;
      return value.map((item, index) =>
        isRow(item) ? row(item, `${MARK}${name}\u0001${index}`) : `${MARK}${name}\u0001${index}`,
      );
    },
  });
}

function slotOf(parameter: unknown): Slot {
  if (typeof parameter !== 'string' || !parameter.startsWith(MARK)) return null;
  const [path, field] = parameter.slice(MARK.length).split('\u0002');
  const [name, index] = path!.split('\u0001');
  return { name: name!, index: index === undefined ? undefined : Number(index), field };
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
  const key = answerKey(parameters);
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

// The answer cache's key for a query's values. Values are nearly always strings (ids, key
// hashes) and joining them costs a third of JSON.stringify; a string holding the separator, or
// any other value, falls back to JSON behind that separator, which a joined key never holds.
const SEPARATOR = '\u0001';
function answerKey(parameters: readonly unknown[]): string {
  let key = '';
  for (let i = 0; i < parameters.length; i++) {
    const value = parameters[i];
    if (typeof value !== 'string' || value.includes(SEPARATOR)) {
      return SEPARATOR + JSON.stringify(parameters);
    }
    key = i === 0 ? value : key + SEPARATOR + value;
  }
  return key;
}
