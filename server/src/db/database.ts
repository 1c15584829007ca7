import SQLite from 'better-sqlite3';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
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
  /** SQLite: how many flushes of the write-ahead log have finished (group commit); else null. */
  walFlushes: () => number | null;
  /** SQLite: how many checkpoints of the write-ahead log have finished; else null. */
  walCheckpoints: () => number | null;
};

const CONNECT_TIMEOUT_MS = 5000;

/**
 * Runs `fn` with commits that are not flushed to disk on their own, for writes whose loss on
 * power failure is acceptable (a job claim). On SQLite it holds the one connection and does not
 * wait for the write-ahead log's flush after it: such a commit survives a process crash (it is in
 * the log, handed to the OS), and the next flush carries it to disk with it, since the log is
 * written in order; only a power or kernel failure before then undoes it. It does wait, first,
 * for every commit made before it to be on disk, so what `fn` reads (a job and its inputs) and
 * acts on can no longer be undone. On PostgreSQL `fn` runs as is: its commits are group-flushed
 * across connections.
 */
export async function withUnflushedCommits<T>(
  db: Db,
  fn: (q: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const wal = walFlushers.get(db.kysely);
  if (!wal) return fn(db.kysely);
  return db.kysely.connection().execute(async (connection) => {
    // While the connection is held nothing else commits, so this covers all `fn` can read.
    await wal.flush();
    wal.suspend();
    try {
      return await fn(connection);
    } finally {
      wal.resume();
    }
  });
}

const walFlushers = new WeakMap<Kysely<Database>, WalFlusher>();

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
    return {
      kysely,
      engine: 'postgres',
      close: () => kysely.destroy(),
      walFlushes: () => null,
      walCheckpoints: () => null,
    };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const filePath = path.join(options.dataDir, 'signet.db');
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
  walFlushers.set(kysely, wal);
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

// How long after a write the next checkpoint starts: under load, one every this often.
const CHECKPOINT_DELAY_MS = 100;

/**
 * Checkpoints of SQLite's write-ahead log, on a thread of their own (checkpointer.worker.mjs).
 * SQLite's automatic checkpoint runs inside the commit that fills the log past 1 000 pages: on
 * the event loop, it copies those pages into the database file and flushes both files, stalling
 * every request for milliseconds, and it was a third of the commits' time under load. Here the
 * event loop's connection never checkpoints; a passive checkpoint runs on the thread shortly
 * after writes, and again while writes go on. If the thread fails, SQLite's own checkpoints are
 * turned back on. The thread is started on the first write and does not keep the process alive.
 */
function createCheckpointer(file: SQLite.Database, filePath: string) {
  file.pragma('wal_autocheckpoint = 0');
  let worker: Worker | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let dirty = false;
  let stopped = false;
  let count = 0;
  const fail = () => {
    if (stopped) return;
    stopped = true;
    file.pragma('wal_autocheckpoint = 1000');
  };
  const schedule = () => {
    if (!timer && !running && !stopped) timer = setTimeout(run, CHECKPOINT_DELAY_MS).unref();
  };
  function run() {
    timer = null;
    if (stopped) return;
    if (!worker) {
      worker = new Worker(new URL('./checkpointer.worker.mjs', import.meta.url), {
        workerData: { file: filePath },
      });
      worker.unref();
      worker.on('message', (answer: { error?: string }) => {
        running = false;
        if (answer.error) return fail();
        count++;
        if (dirty) schedule();
      });
      worker.on('error', fail);
      worker.on('exit', fail);
    }
    running = true;
    dirty = false;
    worker.postMessage('checkpoint');
  }
  return {
    wrote() {
      dirty = true;
      schedule();
    },
    count: () => count,
    /** Ends the thread after the checkpoint it may be running. */
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (!worker) return;
      const exited = once(worker, 'exit');
      worker.postMessage('close');
      await exited;
    },
  };
}

type WalFlusher = ReturnType<typeof createWalFlusher>;

/**
 * Group commit for SQLite. A commit only writes its frames to the write-ahead log; before the
 * code that committed goes on (answers a request, sends a mail), the log is flushed with one
 * fdatasync in libuv's thread pool, shared by every commit made before that fdatasync started.
 * The event loop never waits for the disk, and concurrent requests share flushes. Durability is
 * that of synchronous = FULL: nothing is acknowledged before its commit is on disk.
 */
function createWalFlusher(walPath: string) {
  let handle: Promise<FileHandle> | null = null;
  let writes = 0; // statements that may have written, so far
  let flushed = 0; // of those, how many a finished fdatasync covers
  let pending = false; // the connection's current holder wrote and will wait for a flush
  let suspended = 0;
  let running: Promise<void> | null = null;
  let count = 0;
  const sync = async () => {
    const upTo = writes;
    handle ??= open(walPath, 'r');
    try {
      await (await handle).datasync();
    } catch (err) {
      handle = null;
      throw err;
    }
    flushed = Math.max(flushed, upTo);
    count++;
  };
  /** Resolves once every write made before the call is on disk. */
  async function flush(upTo = writes): Promise<void> {
    while (flushed < upTo) {
      running ??= sync().finally(() => {
        running = null;
      });
      await running;
    }
  }
  return {
    flush,
    count: () => count,
    wrote() {
      writes++;
      if (!suspended) pending = true;
    },
    suspend: () => void suspended++,
    resume: () => void suspended--,
    /** Called as the connection is released: the writes its holder made, to wait for. */
    take(): number | null {
      const upTo = pending ? writes : null;
      pending = false;
      return upTo;
    },
    async close() {
      await running?.catch(() => {});
      await (await handle?.catch(() => null))?.close();
      handle = null;
    },
  };
}

// Kysely's SQLite driver, waiting for the log's flush after handing the connection on, so the
// next transaction runs while this one's commit is flushed (and shares the flush).
class FlushingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #wal: WalFlusher;
  constructor(config: SqliteDialectConfig, wal: WalFlusher) {
    super(config);
    this.#config = config;
    this.#wal = wal;
  }
  override createDriver(): Driver {
    const wal = this.#wal;
    return new (class extends SqliteDriver {
      override async releaseConnection(): Promise<void> {
        const upTo = wal.take();
        await super.releaseConnection();
        if (upTo !== null) await wal.flush(upTo);
      }
    })(this.#config);
  }
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
