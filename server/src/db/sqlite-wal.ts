import { open, type FileHandle } from 'node:fs/promises';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import type { Database } from './schema.js';

// How soon commits that nobody waits to be on disk (withUnflushedCommits) are flushed anyway.
const FLUSH_SOON_MS = 10;

/** The group-commit state of one SQLite database. */
export type WalFlusher = ReturnType<typeof createWalFlusher>;

/**
 * Group commit for SQLite. A commit only writes its frames to the write-ahead log; before the
 * code that committed goes on (answers a request, sends a mail), the log is flushed with one
 * fdatasync in libuv's thread pool, shared by every commit made before that fdatasync started.
 * The event loop never waits for the disk, and concurrent requests share flushes. Durability is
 * that of synchronous = FULL: nothing is acknowledged before its commit is on disk.
 */
export function createWalFlusher(walPath: string) {
  let handle: Promise<FileHandle> | null = null;
  let writes = 0; // statements that may have written, so far
  let flushed = 0; // of those, how many a finished fdatasync covers
  let durable = 0; // the count of writes when the last one a caller waits on disk for was made
  let pending = false; // the connection's current holder wrote and will wait for a flush
  let suspended = 0;
  let running: Promise<void> | null = null;
  let count = 0;
  let closed = false;
  let soon: NodeJS.Timeout | null = null;
  let soonUpTo = 0; // the writes the pending flushSoon must cover
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
    /**
     * Resolves once every write whose holder waits for the disk (not an unflushed commit's) made
     * before the call is on disk.
     */
    flushDurable: () => flush(durable),
    /**
     * Flushes everything written so far within FLUSH_SOON_MS, without anyone waiting for it:
     * unflushed commits made meanwhile share that flush, and the disk is not kept busy flushing
     * back to back for them, which would delay the flushes that requests wait for.
     */
    flushSoon() {
      if (closed) return;
      soonUpTo = writes;
      if (soon) return;
      soon = setTimeout(() => {
        soon = null;
        // Under load, the flushes that requests wait for have usually covered them by then.
        flush(soonUpTo).catch(() => {
          // A failed flush is retried by the next one: a durable commit waits for its own.
        });
      }, FLUSH_SOON_MS);
      soon.unref();
    },
    count: () => count,
    wrote() {
      writes++;
      if (!suspended) {
        pending = true;
        durable = writes;
      }
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
      closed = true;
      if (soon) clearTimeout(soon);
      await running?.catch(() => {});
      await (await handle?.catch(() => null))?.close();
      handle = null;
    },
  };
}

// Kysely's SQLite driver, waiting for the log's flush after handing the connection on, so the
// next transaction runs while this one's commit is flushed (and shares the flush).
// Transactions begin IMMEDIATE: they take the write lock first, waiting for it (busy_timeout) if
// another process holds it. A deferred one that reads and then writes would instead fail at once
// with SQLITE_BUSY, because SQLite cannot wait for the lock while holding a read snapshot: seen
// when the CLI, or a service being replaced, writes to the same file as the running service.
export class FlushingSqliteDialect extends SqliteDialect {
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
      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
      override async releaseConnection(): Promise<void> {
        const upTo = wal.take();
        await super.releaseConnection();
        if (upTo !== null) await wal.flush(upTo);
      }
    })(this.#config);
  }
}

const walFlushers = new WeakMap<Kysely<Database>, WalFlusher>();

/** Remembers the flusher of a SQLite Kysely handle, for withUnflushedCommits. */
export function registerWalFlusher(kysely: Kysely<Database>, wal: WalFlusher) {
  walFlushers.set(kysely, wal);
}

/** The flusher of a SQLite Kysely handle; undefined on PostgreSQL. */
export function walFlusherOf(kysely: Kysely<Database>): WalFlusher | undefined {
  return walFlushers.get(kysely);
}
