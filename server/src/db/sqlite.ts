import SQLite from 'better-sqlite3';
import { chmodSync, closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { Kysely } from 'kysely';
import { ensurePrivateDir } from '../lib/private-dir.js';
import type { Db } from './handle.js';
import { useDirectReads, type DirectReader } from './prepared.js';
import type { Database } from './schema.js';
import { createCheckpointer } from './sqlite-checkpointer.js';
import { createWalFlusher, FlushingSqliteDialect, registerWalFlusher } from './sqlite-wal.js';

/**
 * Opens the embedded SQLite file in dataDir: WAL, group commit off the event loop, checkpoints
 * on a thread, and a read-only second connection for prepared reads.
 */
export function openSqlite(dataDir: string): Db {
  ensurePrivateDir(dataDir);
  const filePath = path.join(dataDir, 'signet.db');
  // 0600 before SQLite opens it: SQLite gives its -wal and -shm files the database file's mode.
  closeSync(openSync(filePath, 'a', 0o600));
  chmodSync(filePath, 0o600);
  const file = new SQLite(filePath);
  file.pragma('journal_mode = WAL');
  // NORMAL: a commit writes the log without flushing it, and the flush is done off the event
  // loop before the caller goes on (createWalFlusher), so a committed signature or event still
  // survives power loss, not only a process crash, when the request that made it is answered.
  file.pragma('synchronous = NORMAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  const checkpointer = createCheckpointer(file, filePath);
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
  const wal = createWalFlusher(`${filePath}-wal`);
  const kysely = new Kysely<Database>({
    dialect: new FlushingSqliteDialect(
      {
        database: withStatementCache(file, () => {
          direct.refresh();
          wal.wrote();
          checkpointer.wrote();
        }),
      },
      wal,
    ),
  });
  useDirectReads(kysely, direct);
  registerWalFlusher(kysely, wal);
  return {
    kysely,
    engine: 'sqlite',
    close: async () => {
      await checkpointer.close();
      await kysely.destroy();
      await wal.close();
      reader.close();
    },
    walFlushes: () => wal.count(),
    walCheckpoints: () => checkpointer.count(),
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
