import {
  CompiledQuery,
  InsertQueryNode,
  PostgresAdapter,
  UpdateQueryNode,
  type Compilable,
} from 'kysely';
import type { DbOrTrx } from './handle.js';

// Writes a transaction needs no answer from (its audit entries, its event and webhook deliveries,
// its jobs and e-mails) cost PostgreSQL a round trip each: a send for signing made seven of them
// one after the other. On a loaded machine each round trip is a system call on both sides, a
// wake-up of the server's backend and a wait for the event loop; under the mixed load the
// socket writes to PostgreSQL were about a third of the service's main thread (issue 53). Such a
// write is marked here; the connection holds it (db/postgres.ts) and sends it with the
// transaction's next statement, as a data-modifying WITH query in front of it, which PostgreSQL
// runs exactly once within that one statement. Elsewhere (SQLite, no transaction) it runs at once.

const MARK = '/* deferred */ ';

/** The SQL of `query`, marked as a write whose answer nobody reads when it may wait. */
export function markDeferred(db: DbOrTrx, query: CompiledQuery<unknown>): CompiledQuery<unknown> {
  const node = query.query;
  const plainWrite =
    (InsertQueryNode.is(node) && !node.returning && !node.onConflict) ||
    (UpdateQueryNode.is(node) && !node.returning);
  return plainWrite && holdsWrites(db) ? { ...query, sql: `${MARK}${query.sql}` } : query;
}

// Only a PostgreSQL transaction's connection holds writes back.
function holdsWrites(db: DbOrTrx): boolean {
  return db.isTransaction && db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Runs an INSERT (without RETURNING or ON CONFLICT) or an UPDATE (without RETURNING) whose answer
 * the caller does not need, not even how many rows it changed: inside a PostgreSQL transaction,
 * with the transaction's next statement.
 */
export async function deferWrite(db: DbOrTrx, query: Compilable<unknown>): Promise<void> {
  await db.executeQuery(markDeferred(db, query.compile()));
}

const FLUSH = '/* deferred: flush */';

/**
 * Sends the writes waiting in `db`'s transaction now, on their own: before a statement that takes
 * a row many transactions wait on (a tenant's daily e-mail count), so that they are not written
 * while that row is held.
 */
export async function flushWrites(db: DbOrTrx): Promise<void> {
  if (holdsWrites(db)) await db.executeQuery(CompiledQuery.raw(FLUSH));
}

/**
 * Whether `text` opens (`begin`, or `start transaction …` as Kysely writes it) or ends (`commit`,
 * `rollback`) a transaction; null for any other statement.
 */
export function transactionBoundary(text: string): 'begin' | 'commit' | 'rollback' | null {
  if (text === 'begin' || text.startsWith('start transaction')) return 'begin';
  return text === 'commit' || text === 'rollback' ? text : null;
}

// What pg answers a statement that returned and changed no row: a held write's answer, unread.
const noRows = (command: string) => ({ command, rowCount: 0, rows: [], fields: [] });

type Waiting = { sql: string; values: unknown[]; table: string; insert: boolean };

// PostgreSQL takes at most 65 535 parameters a statement; a batch stays well below.
const MAX_PARAMETERS = 30_000;
const TARGET = /^(insert into|update) "([a-z_]+)" /;
// Statements that may follow a WITH list. One holding a literal, a dollar quote or a second
// command (hand-written SQL) runs apart: `$n` are renumbered by a plain search.
const MERGEABLE = /^(select|insert into|update|delete from|with) /;
const mentionPatterns = new Map<string, RegExp>();

function mentions(sql: string, table: string): boolean {
  let pattern = mentionPatterns.get(table);
  if (!pattern)
    mentionPatterns.set(table, (pattern = new RegExp(`(^|[^a-z0-9_])${table}([^a-z0-9_]|$)`, 'i')));
  return pattern.test(sql);
}

const plain = (sql: string) => !sql.includes("'") && !sql.includes('$$') && !sql.includes(';');

function renumber(sql: string, by: number): string {
  return by === 0 ? sql : sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + by}`);
}

/**
 * The waiting writes as WITH queries in front of `main` (or, without one, of the last write):
 * one statement, its parameters renumbered in order.
 */
function withWaiting(waiting: Waiting[], main?: { sql: string; values: unknown[] }) {
  const writes = main ? waiting : waiting.slice(0, -1);
  const last = main ?? waiting.at(-1)!;
  const values: unknown[] = [];
  const parts = writes.map((write, i) => {
    const sql = renumber(write.sql, values.length);
    values.push(...write.values);
    return `"deferred_${i + 1}" as (${sql})`;
  });
  let sql = renumber(last.sql, values.length);
  values.push(...last.values);
  if (parts.length > 0) {
    sql = sql.startsWith('with ')
      ? `with ${parts.join(', ')}, ${sql.slice('with '.length)}`
      : `with ${parts.join(', ')} ${sql}`;
  }
  return { sql, values };
}

/**
 * Wraps a connection's `query` so that it holds the writes marked by `deferWrite` while a
 * transaction is open and sends them in front of the next statement that reads none of their
 * tables; before any other statement, and before `commit`, they go alone, as one statement. A
 * `rollback` drops them. One that fails fails the statement it went with, and so the
 * transaction, as it would have on its own.
 */
export function deferringWrites<R>(
  query: (text: unknown, values?: unknown[]) => Promise<R>,
): (text: unknown, values?: unknown[]) => Promise<R> {
  let waiting: Waiting[] = [];
  let inTransaction = false;
  const flush = async () => {
    const batch = waiting;
    waiting = [];
    const { sql, values } = withWaiting(batch);
    await query(sql, values);
  };
  const waitingValues = () => waiting.reduce((n, w) => n + w.values.length, 0);
  return async (text: unknown, values: unknown[] = []) => {
    if (typeof text !== 'string') {
      if (waiting.length > 0) await flush();
      return query(text, values);
    }
    if (text.startsWith(MARK)) {
      const sql = text.slice(MARK.length);
      const target = TARGET.exec(sql);
      if (!inTransaction || !target || !plain(sql)) {
        if (waiting.length > 0) await flush();
        return query(sql, values);
      }
      const write = { sql, values, table: target[2], insert: target[1] === 'insert into' };
      // A write that reads a table with writes waiting would not see them (the parts of one
      // statement share its snapshot), nor would an update see rows inserted beside it.
      const clash = waiting.some(
        (w) => mentions(sql, w.table) && !(w.insert && write.insert && w.table === write.table),
      );
      if (clash || waitingValues() + values.length > MAX_PARAMETERS) await flush();
      waiting.push(write);
      return noRows(write.insert ? 'INSERT' : 'UPDATE') as R;
    }
    if (text === FLUSH) {
      if (waiting.length > 0) await flush();
      return noRows('SELECT') as R;
    }
    const boundary = transactionBoundary(text);
    if (boundary) inTransaction = boundary === 'begin';
    if (boundary === 'rollback') waiting = [];
    if (waiting.length === 0) return query(text, values);
    const joins =
      MERGEABLE.test(text) &&
      !text.startsWith('with recursive') &&
      plain(text) &&
      waitingValues() + values.length <= MAX_PARAMETERS &&
      !waiting.some((w) => mentions(text, w.table));
    if (!joins) {
      await flush();
      return query(text, values);
    }
    const batch = waiting;
    waiting = [];
    const merged = withWaiting(batch, { sql: text, values });
    return query(merged.sql, merged.values);
  };
}
