import { Worker } from 'node:worker_threads';
import { AppError } from './errors.js';

/** What a bounded worker is told: its script, its limits, and how a breach reads. */
export type BoundedWorkerOptions = {
  /** A worker script answering each message with `{result}` or `{error}`. */
  script: URL;
  /** The thread's heap limit. */
  heapMb: number;
  /** How long one job may take before the thread is ended. */
  deadlineMs: number;
  /** The 422 detail of a job that ran out of time or memory, e.g. "The file could not be verified". */
  failure: string;
};

type Job<Req, Res> = {
  message: Req;
  resolve: (result: Res) => void;
  reject: (err: unknown) => void;
};

/**
 * One thread, kept warm, doing one job at a time (the others wait their turn): hostile input
 * costs that thread, never the event loop. A job that takes longer than the deadline or more
 * memory than the heap limit ends the thread (a new one starts for the next job) and answers
 * 422 on `file`; an error the script reports rejects with its message, and so does a thread
 * that ends for any other reason (then a plain Error: a 500, or a retried job).
 */
export function createBoundedWorker<Req, Res>(options: BoundedWorkerOptions) {
  let worker: Worker | null = null;
  const queue: Job<Req, Res>[] = [];
  let busy = false;

  let started = 0;

  function start(): Worker {
    started++;
    const w = new Worker(options.script, {
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
    });
    w.unref();
    return w;
  }

  function next() {
    const job = queue.shift();
    if (!job) return;
    busy = true;
    const w = (worker ??= start());
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('error', onFailure);
      w.off('exit', onFailure);
      busy = false;
      fn();
      next();
    };
    const fail = (detail: string) => {
      worker = null;
      void w.terminate();
      finish(() =>
        job.reject(
          new AppError('validation_failed', detail, {
            errors: [{ path: 'file', message: detail }],
          }),
        ),
      );
    };
    const timer = setTimeout(
      () => fail(`${options.failure} within ${options.deadlineMs / 1000} s.`),
      options.deadlineMs,
    );
    const onMessage = (answer: { result?: Res; error?: string }) =>
      finish(() =>
        'result' in answer
          ? job.resolve(answer.result as Res)
          : job.reject(new Error(answer.error)),
      );
    // Out of memory is the input's doing: a 422 like the deadline. Any other end of the
    // thread (a script that fails to load, an uncaught exception) is ours, and an error.
    const onFailure = (err: unknown) => {
      if ((err as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        return fail(`${options.failure} within the memory allowed.`);
      }
      worker = null;
      void w.terminate();
      const reason = err instanceof Error ? err.message : `it exited with code ${String(err)}`;
      finish(() =>
        job.reject(new Error(`${options.failure}: its worker thread stopped: ${reason}`)),
      );
    };
    w.on('message', onMessage);
    w.once('error', onFailure);
    w.once('exit', onFailure);
    w.postMessage(job.message);
  }

  return {
    /** Runs one job on the thread. */
    run(message: Req): Promise<Res> {
      return new Promise((resolve, reject) => {
        queue.push({ message, resolve, reject });
        if (!busy) next();
      });
    },
    /** Which thread is running: 1 for the first started, 2 after it was replaced…; 0 when none is. */
    thread: () => (worker ? started : 0),
    /** Ends the thread. */
    async close() {
      await worker?.terminate();
      worker = null;
    },
  };
}
