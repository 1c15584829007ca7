import { createBoundedWorker } from '../../lib/bounded-worker.js';
import type { VerifyOptions, VerifyResult } from './verify-pdf.js';

/** How long one verification may take before its worker is ended. */
export const VERIFY_DEADLINE_MS = 10_000;

/**
 * The verifying thread (verify.worker.mjs): one file at a time, with a 256 MB heap and a
 * VERIFY_DEADLINE_MS deadline, past which the thread is ended and the answer is 422.
 */
export function createVerifyWorker() {
  const worker = createBoundedWorker<{ bytes: Uint8Array; options: VerifyOptions }, VerifyResult>({
    script: new URL('./verify.worker.mjs', import.meta.url),
    heapMb: 256,
    deadlineMs: VERIFY_DEADLINE_MS,
    failure: 'The file could not be verified',
  });
  return {
    /** Verifies `bytes` on the thread. */
    verify: (bytes: Uint8Array, options: VerifyOptions) => worker.run({ bytes, options }),
    /** Ends the thread. */
    close: () => worker.close(),
  };
}

/** A verifying thread. */
export type VerifyWorker = ReturnType<typeof createVerifyWorker>;
