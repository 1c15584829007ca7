import { Worker } from 'node:worker_threads';
import { AppError } from '../../lib/errors.js';
import type { VerifyOptions, VerifyResult } from './verify-pdf.js';

/** How long one verification may take before its worker is ended. */
export const VERIFY_DEADLINE_MS = 10_000;
/** The verifying thread's heap limit. */
const HEAP_LIMIT_MB = 256;

type Job = {
  bytes: Uint8Array;
  options: VerifyOptions;
  resolve: (result: VerifyResult) => void;
  reject: (err: unknown) => void;
};

/**
 * One verifying thread, kept warm, doing one file at a time (the others wait their turn):
 * a hostile file costs that thread, never the event loop, and a file that takes longer than
 * VERIFY_DEADLINE_MS or more memory than HEAP_LIMIT_MB ends the thread (a new one starts for the
 * next file) and answers 422.
 */
export function createVerifyWorker() {
  let worker: Worker | null = null;
  const queue: Job[] = [];
  let busy = false;

  function start(): Worker {
    const w = new Worker(new URL('./verify.worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB },
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
      () => fail(`The file could not be verified within ${VERIFY_DEADLINE_MS / 1000} s.`),
      VERIFY_DEADLINE_MS,
    );
    const onMessage = (answer: { result?: VerifyResult; error?: string }) =>
      finish(() =>
        answer.result ? job.resolve(answer.result) : job.reject(new Error(answer.error)),
      );
    const onFailure = () => fail('The file could not be verified within the memory allowed.');
    w.on('message', onMessage);
    w.once('error', onFailure);
    w.once('exit', onFailure);
    w.postMessage({ bytes: job.bytes, options: job.options });
  }

  return {
    /** Verifies `bytes` on the thread. */
    verify(bytes: Uint8Array, options: VerifyOptions): Promise<VerifyResult> {
      return new Promise((resolve, reject) => {
        queue.push({ bytes, options, resolve, reject });
        if (!busy) next();
      });
    },
    /** Ends the thread. */
    async close() {
      await worker?.terminate();
      worker = null;
    },
  };
}

/** A verifying thread. */
export type VerifyWorker = ReturnType<typeof createVerifyWorker>;
