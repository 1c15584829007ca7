import { Worker, type Transferable } from 'node:worker_threads';
import { AppError } from './errors.js';

/** What a bounded worker is told: its script, its limits, and how a breach reads. */
export type BoundedWorkerOptions = {
  /** A worker script answering each message with `{result}` or `{error}`. */
  script: URL;
  /** The thread's heap limit. */
  heapMb: number;
  /** How long one job may take before the thread is ended (a job may ask for less or more). */
  deadlineMs: number;
  /** The 422 detail of a job that ran out of time or memory, e.g. "The file could not be verified". */
  failure: string;
  /** Threads running jobs side by side, each with the heap limit; 1 unless said. */
  threads?: number;
  /**
   * Keep one spare thread started beside the others (from the first job on): a thread ended
   * for its input (deadline, memory, withdrawal) is replaced by it at once, and a new spare
   * starts, so the next job does not wait for a thread to load. Else a thread starts with the
   * next job.
   */
  spare?: boolean;
  /**
   * The script posts `{ ready: true }` once it has loaded: a job's deadline then starts when its
   * thread is ready, not while it is still loading its modules (seconds on a busy machine).
   */
  announcesReady?: boolean;
};

/** How long a thread that announces readiness may take to load before its job fails. */
const LOAD_LIMIT_MS = 60_000;

/** How one job runs: its own deadline, and a signal that withdraws it. */
export type RunOptions = {
  /** This job's deadline instead of the worker's. */
  deadlineMs?: number;
  /**
   * Withdraws the job (its client went away): a waiting job leaves the queue, a running one
   * ends its thread, which is replaced for the next job. Either way run() rejects with an
   * Error named AbortError.
   */
  signal?: AbortSignal;
  /** Buffers moved to the thread instead of copied (the caller must not read them after). */
  transfer?: Transferable[];
};

type Job<Req, Res> = {
  message: Req;
  options: RunOptions;
  resolve: (result: Res) => void;
  reject: (err: unknown) => void;
  /** Ends the job where it is: called on abort. */
  cancel: () => void;
};

type Slot = { worker: Worker | null; busy: boolean };

function abortError(): Error {
  const err = new Error('The job was withdrawn: its client went away.');
  err.name = 'AbortError';
  return err;
}

/**
 * A few threads (one unless `threads` says more), kept warm, each doing one job at a time; the
 * other jobs wait their turn in arrival order: hostile input costs a thread, never the event
 * loop. A job that takes longer than its deadline or more memory than the heap limit ends its
 * thread (a new one starts for the next job, or the spare takes its place) and answers 422 on
 * `file`; an error the script reports rejects with its message, and so does a thread that ends
 * for any other reason (then a plain Error: a 500, or a retried job). A job whose signal aborts
 * is withdrawn.
 */
export function createBoundedWorker<Req, Res>(options: BoundedWorkerOptions) {
  const slots: Slot[] = Array.from({ length: Math.max(1, options.threads ?? 1) }, () => ({
    worker: null,
    busy: false,
  }));
  const queue: Job<Req, Res>[] = [];
  let started = 0;
  let closed = false;

  // The spare thread (options.spare), loaded and idle.
  let spare: Worker | null = null;
  // Threads that said they have loaded (options.announcesReady).
  const ready = new WeakSet<Worker>();

  function start(): Worker {
    started++;
    const w = new Worker(options.script, {
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
    });
    w.unref();
    // A thread that ends between jobs (one that fails to load) is dropped; the next job starts
    // another and hears why if it fails again.
    w.on('error', () => {});
    const onReady = (message: unknown) => {
      if ((message as { ready?: unknown } | null)?.ready !== true) return;
      ready.add(w);
      w.off('message', onReady);
    };
    if (options.announcesReady) w.on('message', onReady);
    w.once('exit', () => {
      if (spare === w) spare = null;
      for (const slot of slots) if (slot.worker === w) slot.worker = null;
    });
    return w;
  }
  function startSpare() {
    if (options.spare && !closed && !spare) spare = start();
  }
  // A slot's thread was ended for its input: the spare takes its place, and a new spare starts.
  function replace(slot: Slot) {
    if (!spare) return;
    slot.worker = spare;
    spare = null;
    startSpare();
  }

  // A free slot whose thread has loaded first, when threads say so: a job sent to one still
  // loading would wait for it.
  const loaded = (slot: Slot) =>
    !options.announcesReady || (!!slot.worker && ready.has(slot.worker));
  function next() {
    while (queue.length > 0) {
      const free = slots.filter((slot) => !slot.busy);
      const slot = free.find(loaded) ?? free[0];
      if (!slot) return;
      runOn(slot, queue.shift()!);
    }
  }

  function runOn(slot: Slot, job: Job<Req, Res>) {
    slot.busy = true;
    const w = (slot.worker ??= start());
    startSpare();
    const deadlineMs = job.options.deadlineMs ?? options.deadlineMs;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('error', onFailure);
      w.off('exit', onFailure);
      slot.busy = false;
      fn();
      next();
    };
    const end = (forInput = false) => {
      void w.terminate();
      if (slot.worker !== w) return;
      slot.worker = null;
      if (forInput) replace(slot);
    };
    // The input's doing: the spare, if kept, takes the thread's place at once.
    const fail = (detail: string) => {
      end(true);
      finish(() =>
        job.reject(
          new AppError('validation_failed', detail, {
            errors: [{ path: 'file', message: detail }],
          }),
        ),
      );
    };
    let timer: NodeJS.Timeout | undefined;
    const startDeadline = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => fail(`${options.failure} within ${deadlineMs / 1000} s.`),
        deadlineMs,
      );
    };
    if (!options.announcesReady || ready.has(w)) startDeadline();
    else {
      // Its thread is loading: the deadline starts when it is ready.
      timer = setTimeout(
        () => onFailure(new Error(`it did not load within ${LOAD_LIMIT_MS / 1000} s`)),
        LOAD_LIMIT_MS,
      );
    }
    // An error the script reports keeps its name (seal.worker.mjs's OutsideFault, say): the
    // caller tells a fault of the input from a fault of something outside it by that.
    const onMessage = (answer: {
      result?: Res;
      error?: string;
      errorName?: string;
      ready?: true;
    }) => {
      if (answer.ready === true) return startDeadline();
      finish(() =>
        'result' in answer
          ? job.resolve(answer.result as Res)
          : job.reject(
              Object.assign(new Error(answer.error), { name: answer.errorName ?? 'Error' }),
            ),
      );
    };
    // Out of memory is the input's doing: a 422 like the deadline. Any other end of the
    // thread (a script that fails to load, an uncaught exception) is ours, and an error.
    const onFailure = (err: unknown) => {
      if ((err as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        return fail(`${options.failure} within the memory allowed.`);
      }
      end();
      const reason = err instanceof Error ? err.message : `it exited with code ${String(err)}`;
      finish(() =>
        job.reject(new Error(`${options.failure}: its worker thread stopped: ${reason}`)),
      );
    };
    // A running job cannot be interrupted inside the thread: the thread goes with it.
    job.cancel = () => {
      end(true);
      finish(() => job.reject(abortError()));
    };
    w.on('message', onMessage);
    w.once('error', onFailure);
    w.once('exit', onFailure);
    w.postMessage(job.message, job.options.transfer);
  }

  return {
    /** Runs one job on a free thread, or when one is free. */
    run(message: Req, runOptions: RunOptions = {}): Promise<Res> {
      return new Promise((resolve, reject) => {
        const { signal } = runOptions;
        if (signal?.aborted) return reject(abortError());
        const onAbort = () => job.cancel();
        const job: Job<Req, Res> = {
          message,
          options: runOptions,
          resolve: (result) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(result);
          },
          reject: (err) => {
            signal?.removeEventListener('abort', onAbort);
            reject(err);
          },
          // Until it starts, withdrawing a job takes it out of the queue.
          cancel: () => {
            const at = queue.indexOf(job);
            if (at !== -1) queue.splice(at, 1);
            job.reject(abortError());
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(job);
        next();
      });
    },
    /** Jobs waiting for a thread. */
    waiting: () => queue.length,
    /** Jobs running on a thread. */
    running: () => slots.filter((s) => s.busy).length,
    /**
     * Which thread is running: 1 for the first started, 2 after it was replaced…; 0 when none
     * is. With several threads, the one started last.
     */
    thread: () => (slots.some((s) => s.worker) ? started : 0),
    /** Ends the threads. */
    async close() {
      closed = true;
      await Promise.all([...slots.map((s) => s.worker?.terminate()), spare?.terminate()]);
      for (const s of slots) s.worker = null;
      spare = null;
    },
  };
}
