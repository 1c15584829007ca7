import type { Kysely, Transaction } from 'kysely';
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

/** A Kysely handle or an open transaction: repos and jobs run inside the caller's transaction. */
export type DbOrTrx = Kysely<Database> | Transaction<Database>;
