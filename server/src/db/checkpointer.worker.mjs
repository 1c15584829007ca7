// @ts-check
// The checkpointer thread of database.ts (plain JavaScript: a worker runs outside tsx's loader).
// It holds its own connection to the SQLite file and, on each message, copies the write-ahead
// log's committed pages into the database file (a passive checkpoint: it never waits for, or
// blocks, the event loop's writers and readers), then answers with the log's size in frames and
// how many of them are now in the database file. 'close' closes the connection and ends the thread.
import SQLite from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const db = new SQLite(/** @type {{ file: string }} */ (workerData).file);
db.pragma('busy_timeout = 5000');
// As on the event loop's connection: the log is flushed before a checkpoint copies from it, and
// the database file after.
db.pragma('synchronous = NORMAL');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');

port.on('message', (message) => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  try {
    const { log, checkpointed } = /** @type {{ log: number; checkpointed: number }} */ (
      checkpoint.get()
    );
    port.postMessage({ log, checkpointed });
  } catch (err) {
    port.postMessage({ error: /** @type {Error} */ (err).message });
  }
});
