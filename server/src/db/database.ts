import { sql, type Kysely } from 'kysely';
import type { Db } from './handle.js';
import { openPostgres } from './postgres.js';
import type { Database } from './schema.js';
import { openSqlite } from './sqlite.js';
import { walFlusherOf } from './sqlite-wal.js';

/**
 * Runs `fn` with commits that are not flushed to disk on their own, for writes whose loss on
 * power failure is acceptable (a job claim, the recorded outcome of a webhook attempt that
 * leaves nothing else to do). On SQLite it holds the one connection and does not wait for the
 * write-ahead log's flush after it: such a commit survives a process crash (it is in the log,
 * handed to the OS), and a flush started in the background within 10 ms carries it to disk (the
 * log is written in order, so any later flush does too); only a power or kernel
 * failure before then undoes it. It does wait, first, for every durable commit made before it to
 * be on disk, so what `fn` reads (a job and its inputs) and acts on can no longer be undone. On
 * PostgreSQL `fn` runs as is: its commits are group-flushed across connections.
 */
export async function withUnflushedCommits<T>(
  db: Db,
  fn: (q: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const wal = walFlusherOf(db.kysely);
  if (!wal) return fn(db.kysely);
  return db.kysely.connection().execute(async (connection) => {
    // While the connection is held nothing else commits, so this covers all `fn` can read.
    await wal.flushDurable();
    wal.suspend();
    try {
      return await fn(connection);
    } finally {
      wal.resume();
      wal.flushSoon();
    }
  });
}

/** Opens PostgreSQL when a URL is given, else the embedded SQLite file in dataDir. */
export function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  databasePreparedStatements?: boolean;
}): Db {
  if (!options.databaseUrl) return openSqlite(options.dataDir);
  return openPostgres(options.databaseUrl, { prepare: options.databasePreparedStatements ?? true });
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
