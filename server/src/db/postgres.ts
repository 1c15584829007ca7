import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Db } from './handle.js';
import type { Database } from './schema.js';

// While the server is down or restarting, waiting for a connection must fail fast (503)
// rather than hold the request open: without a limit a saturated pool waits forever.
const CONNECT_TIMEOUT_MS = 5000;

/** Opens a pool of 10 connections to the PostgreSQL at `databaseUrl`. */
export function openPostgres(databaseUrl: string): Db {
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
  pool.on('connect', (client) => client.on('error', () => {}));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    engine: 'postgres',
    close: () => kysely.destroy(),
    walFlushes: () => null,
    walCheckpoints: () => null,
  };
}
