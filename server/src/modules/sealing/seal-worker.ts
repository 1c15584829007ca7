import { createBoundedWorker } from '../../lib/bounded-worker.js';
import type { Sealed } from './seal-pdf.js';
import type { SealPdfInput } from './seal-types.js';

/** How long one seal may take on the sealing thread. */
export const SEAL_DEADLINE_MS = 120_000;
// Sealing a 300-page, 40 MiB scan peaks at about 420 MB: room for that and more.
const SEAL_HEAP_MB = 1536;

let worker: ReturnType<typeof createBoundedWorker<SealPdfInput, Sealed>> | undefined;

/**
 * Seals on a thread of its own (seal.worker.mjs), one document at a time: parsing and
 * rewriting an uploaded PDF never runs on the event loop. A seal that takes longer than
 * SEAL_DEADLINE_MS or more than the heap allows rejects with a 422 AppError.
 */
export function sealOffThread(input: SealPdfInput): Promise<Sealed> {
  worker ??= createBoundedWorker<SealPdfInput, Sealed>({
    script: new URL('./seal.worker.mjs', import.meta.url),
    heapMb: SEAL_HEAP_MB,
    deadlineMs: SEAL_DEADLINE_MS,
    failure: 'The document could not be sealed',
  });
  return worker.run(input);
}
