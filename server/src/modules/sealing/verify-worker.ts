import { createBoundedWorker } from '../../lib/bounded-worker.js';
import type { VerifyOptions, VerifyResult } from './verify-pdf.js';

/** How long one verification by a caller with an API key or session may take. */
export const VERIFY_DEADLINE_MS = 10_000;
/** How long one verification by an anonymous caller may take. */
export const VERIFY_DEADLINE_ANONYMOUS_MS = 5_000;
/** Verifying threads, each with a 256 MB heap. */
export const VERIFY_THREADS = 2;

/**
 * The verifying threads (verify.worker.mjs), at a lower CPU priority than the event loop:
 * VERIFY_THREADS files at a time, the others waiting in arrival order, each with a 256 MB heap
 * and a deadline (VERIFY_DEADLINE_MS unless the caller asks for less), past which its thread is
 * ended, a new one started at once, and the answer is 422.
 */
export function createVerifyWorker() {
  const worker = createBoundedWorker<
    { bytes: Uint8Array; options: VerifyOptions },
    VerifyResult & { sha256: string }
  >({
    script: new URL('./verify.worker.mjs', import.meta.url),
    heapMb: 256,
    deadlineMs: VERIFY_DEADLINE_MS,
    failure: 'The file could not be verified',
    threads: VERIFY_THREADS,
    spare: true,
    announcesReady: true,
  });
  return {
    /**
     * Verifies `bytes` on a thread, which also answers their SHA-256. A buffer of its own is
     * moved there, not copied: the caller must not read `bytes` afterwards.
     */
    verify: (
      bytes: Uint8Array,
      options: VerifyOptions,
      run: { deadlineMs?: number; signal?: AbortSignal } = {},
    ) =>
      worker.run(
        { bytes, options },
        {
          ...run,
          transfer:
            bytes.buffer instanceof ArrayBuffer &&
            bytes.byteOffset === 0 &&
            bytes.byteLength === bytes.buffer.byteLength
              ? [bytes.buffer]
              : [],
        },
      ),
    /** Files being verified and waiting. */
    load: () => ({ running: worker.running(), waiting: worker.waiting() }),
    /** Ends the threads. */
    close: () => worker.close(),
  };
}

/** The verifying threads. */
export type VerifyWorker = ReturnType<typeof createVerifyWorker>;
