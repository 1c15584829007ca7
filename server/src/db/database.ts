import SQLite from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { useDirectReads, type DirectReader } from './prepared.js';
import type { Database } from './schema.js';

/** Which engine a Db runs on; a few queries (row locks) differ between them. */
export type Engine = 'sqlite' | 'postgres';

/** The database handle every service receives. */
export type Db = {
  kysely: Kysely<Database>;
  engine: Engine;
  close: () => Promise<void>;
};

const CONNECT_TIMEOUT_MS = 5000;

/**
 * Runs `fn` with commits that are not flushed to disk on their own, for writes whose loss on
 * power failure is acceptable (a job claim). On SQLite it holds the one connection and sets
 * synchronous = NORMAL meanwhile: such a commit survives a process crash (it is in the
 * write-ahead log, handed to the OS), and the next durable commit's flush carries it to disk
 * with it, since the log is written in order; only a power or kernel failure before then undoes
 * it. That saves a flush per commit, about a millisecond on a loaded VM disk. On PostgreSQL
 * `fn` runs as is: its commits are group-flushed across connections.
 */
export async function withUnflushedCommits<T>(
  db: Db,
  fn: (q: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (db.engine !== 'sqlite') return fn(db.kysely);
  return db.kysely.connection().execute(async (connection) => {
    await sql`pragma synchronous = NORMAL`.execute(connection);
    try {
      return await fn(connection);
    } finally {
      await sql`pragma synchronous = FULL`.execute(connection);
    }
  });
}

/** Opens PostgreSQL when a URL is given, else the embedded SQLite file in dataDir. */
export function openDatabase(options: { databaseUrl: string | null; dataDir: string }): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // While the server is down or restarting, waiting for a connection must fail fast (503)
      // rather than hold the request open: without a limit a saturated pool waits forever.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // A client losing its server (restart, failover) must not crash the process. The pool
    // only listens on idle clients; one that is checked out (in a transaction between two
    // statements) would emit an unhandled 'error'. Its next query fails instead, and the pool
    // drops it on release because it is no longer queryable.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, engine: 'postgres', close: () => kysely.destroy() };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const filePath = path.join(options.dataDir, 'signet.db');
  const file = new SQLite(filePath);
  file.pragma('journal_mode = WAL');
  // FULL: a committed signature or event survives power loss, not only a process crash.
  file.pragma('synchronous = FULL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  // A second, read-only connection for the prepared reads on every request's path (see
  // prepared.ts). WAL gives it its own snapshot of committed data, so it never sees another
  // request's open transaction and needs no turn on the writer's connection.
  const reader = new SQLite(filePath, { readonly: true });
  reader.pragma('busy_timeout = 5000');
  const dataVersion = reader.prepare('pragma data_version').pluck();
  let version: number | null = null;
  const direct: DirectReader = {
    ...withStatementCache(reader),
    version: () => (version ??= dataVersion.get() as number),
    refresh: () => {
      version = null;
    },
  };
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(file, direct.refresh) }),
  });
  useDirectReads(kysely, direct);
  return {
    kysely,
    engine: 'sqlite',
    close: async () => {
      await kysely.destroy();
      reader.close();
    },
  };
}

// Kysely prepares every statement anew, which was a fifth of the CPU of a simple authenticated
// request. Statements run to completion synchronously (Kysely streams nothing here), so one
// prepared statement per SQL text can be reused; the map is bounded by evicting the oldest.
// `onWrite` hears of every statement that may write (a commit among them) as it is run.
const STATEMENT_CACHE_SIZE = 500;
function withStatementCache(file: SQLite.Database, onWrite?: () => void) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => file.close(),
    prepare: (text: string) => {
      let statement = cache.get(text);
      if (!statement) {
        statement = file.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(text, statement);
      }
      if (onWrite && !statement.reader) onWrite();
      return statement;
    },
  };
}

/** True when the database answers a trivial query. */
export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db.kysely);
    return true;
  } catch {
    return false;
  }
}
