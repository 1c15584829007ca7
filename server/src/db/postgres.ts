import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Db } from './handle.js';
import { deferringWrites, transactionBoundary } from './deferred-writes.js';
import { nameStatement, renameStatement, statementNameOf } from './prepared.js';
import type { Database } from './schema.js';

// While the server is down or restarting, waiting for a connection must fail fast (503)
// rather than hold the request open: without a limit a saturated pool waits forever.
const CONNECT_TIMEOUT_MS = 5000;

/**
 * Opens a pool of 10 connections to the PostgreSQL at `databaseUrl`; with `prepare`, statements
 * with parameters (db/prepared.ts) run as named prepared statements.
 */
export function openPostgres(databaseUrl: string, options: { prepare: boolean }): Db {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // A client losing its server (restart, failover) must not crash the process. The pool
  // only listens on idle clients; one that is checked out (in a transaction between two
  // statements) would emit an unhandled 'error'. Its next query fails instead, and the pool
  // drops it on release because it is no longer queryable.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
    const query = client.query.bind(client) as Query;
    (client as { query: unknown }).query = deferringWrites(
      options.prepare ? namedStatements(query) : query,
    );
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    engine: 'postgres',
    close: () => kysely.destroy(),
    walFlushes: () => null,
    walCheckpoints: () => null,
  };
}

// PostgreSQL's error when a prepared statement's result columns changed under it.
const PLAN_CHANGED = 'cached plan must not change result type';

type Query = (text: unknown, values?: unknown[]) => Promise<pg.QueryResult>;

/**
 * Sends statements with parameters as named statements on this connection: the server parses
 * and plans each once per connection. When a newer version's migration has changed a table
 * under a plan (a rolling upgrade), the statement is renamed for every connection and, outside
 * a transaction, run again at once; inside one, the transaction fails and changes nothing.
 */
function namedStatements(query: Query): Query {
  let inTransaction = false;
  const run = async (text: string, values: unknown[] | undefined) => {
    // Statements with parameters are the ones built by Kysely, over and over with new values;
    // those without (`begin`, `commit`, a migration's DDL) stay unnamed.
    const name = values?.length ? nameStatement(text) : statementNameOf(text);
    if (!name) return query(text, values);
    try {
      return await query({ name, text, values });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes(PLAN_CHANGED)) throw error;
      renameStatement(text);
      if (inTransaction) throw error;
      return query({ name: statementNameOf(text), text, values });
    }
  };
  return (text, values) => {
    if (typeof text !== 'string') return query(text, values);
    const boundary = transactionBoundary(text);
    if (boundary) inTransaction = boundary === 'begin';
    return run(text, values);
  };
}
