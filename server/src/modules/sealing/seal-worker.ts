import { createBoundedWorker } from '../../lib/bounded-worker.js';
import type { AuditCertificateInput } from './audit-certificate.js';
import type { SealCertificate } from './seal-certificate.js';
import type { Sealed } from './seal-pdf.js';
import type { SealPdfInput } from './seal-types.js';

/** How long one seal may take on the sealing thread. */
export const SEAL_DEADLINE_MS = 120_000;
// Sealing a 300-page, 40 MiB scan peaks at about 420 MB: room for that and more.
const SEAL_HEAP_MB = 1536;
/**
 * How many throwaway seals warm a new sealing thread (seal-warmup.ts). Its first seal takes
 * 120–170 ms (fonts read, nothing compiled yet), the next ones 10–40 ms, and a 10-page
 * contract settles at 6–9 ms after about 40: about 0.5 s of one CPU, once per thread.
 */
export const WARM_UP_SEALS = 40;

/**
 * What the sealing thread seals: the original's bytes, or the file it reads them from; with
 * `attachOnly`, without reading the original (attached unchanged, for that reason).
 */
export type SealJobInput = Omit<SealPdfInput, 'original'> &
  ({ original: Uint8Array } | { originalPath: string }) & { attachOnly?: string };
type WarmUp = { warmUp: { certificate: SealCertificate; sandbox: boolean } };
type Certificate = { auditCertificate: AuditCertificateInput };
let worker:
  | ReturnType<
      typeof createBoundedWorker<
        SealJobInput | WarmUp | Certificate,
        Sealed | { seals: number } | Uint8Array
      >
    >
  | undefined;

function sealer() {
  worker ??= createBoundedWorker({
    script: new URL('./seal.worker.mjs', import.meta.url),
    heapMb: SEAL_HEAP_MB,
    deadlineMs: SEAL_DEADLINE_MS,
    failure: 'The document could not be sealed',
  });
  return worker;
}

/**
 * Seals on a thread of its own (seal.worker.mjs), one document at a time: parsing and
 * rewriting an uploaded PDF never runs on the event loop. Given `originalPath`, the thread
 * reads the original itself: nothing of it passes through the event loop nor is copied between
 * threads. A seal that takes longer than SEAL_DEADLINE_MS or more than the heap allows rejects
 * with a 422 AppError.
 */
export function sealOffThread(input: SealJobInput): Promise<Sealed> {
  return sealer().run(input) as Promise<Sealed>;
}

/** How long making one audit certificate may take: a few pages, unless its trail is long. */
const CERTIFICATE_DEADLINE_MS = 30_000;

/**
 * Makes a document's audit certificate alone (audit-certificate.ts) on the sealing thread:
 * building and signing a PDF never runs on the event loop. It waits its turn behind the seals
 * queued before it.
 */
export function buildCertificateOffThread(input: AuditCertificateInput): Promise<Uint8Array> {
  const run = sealer().run({ auditCertificate: input }, { deadlineMs: CERTIFICATE_DEADLINE_MS });
  return run as Promise<Uint8Array>;
}

let warming = false;
let warmThread = 0;
/** Throwaway seals run to warm the sealing thread, by this process (/metrics). */
export const warmUpCounts = { seals: 0 };

/**
 * Starts the sealing thread if it is not running and warms it with WARM_UP_SEALS throwaway
 * seals, unless it is warm already. Called when a document is sent: its seal will be needed,
 * and should not wait for the thread to start (over a second) nor run code V8 has not compiled
 * yet. The seals are queued one after another, so a real seal waits for one at most. A failure
 * ends the warm-up quietly: the real seal reports its own.
 */
export function warmUpSealing(options: {
  certificate: () => Promise<SealCertificate>;
  sandbox: boolean;
}): void {
  const pool = sealer();
  if (warming || (warmThread !== 0 && pool.thread() === warmThread)) return;
  warming = true;
  void (async () => {
    const warmUp = { certificate: await options.certificate(), sandbox: options.sandbox };
    for (;;) {
      const { seals } = (await pool.run({ warmUp })) as { seals: number };
      warmUpCounts.seals++;
      if (seals >= WARM_UP_SEALS) return (warmThread = pool.thread());
    }
  })()
    .catch(() => {})
    .finally(() => (warming = false));
}
