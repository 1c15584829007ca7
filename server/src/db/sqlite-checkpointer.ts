import type SQLite from 'better-sqlite3';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

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
export function createCheckpointer(file: SQLite.Database, filePath: string) {
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
      // Referenced again, so that a process with nothing else to do waits for the thread's end
      // instead of exiting with the close still pending.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
