/**
 * A transient fault of a service outside the document: the time-stamp authority, or a source of
 * revocation data (OCSP responder, CRL). Never the document's doing: the seal job retries it
 * and never falls back to sealing the original attached unchanged for it. Its message names
 * the service and what happened. The name survives the sealing thread's boundary
 * (bounded-worker.ts), which is how seal.job.ts recognises it.
 */
export class OutsideFault extends Error {
  override readonly name = 'OutsideFault';
  constructor(
    readonly source: 'tsa' | 'revocation',
    message: string,
  ) {
    super(message);
  }
}

/** True for an OutsideFault, also one rebuilt from a worker thread's answer. */
export function isOutsideFault(err: unknown): err is Error {
  return err instanceof Error && err.name === 'OutsideFault';
}
