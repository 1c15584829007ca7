/**
 * A transient fault of something outside the document: the time-stamp authority, or an OCSP
 * responder or CRL server. The document is fine; the same seal may succeed on a later try, so
 * the seal job retries on it instead of failing the document, and never falls back to sealing
 * the original attached unchanged for it. The name survives the sealing thread's boundary
 * (bounded-worker.ts), which is how a caller on the other side recognises it.
 */
export class OutsideFault extends Error {
  override readonly name = 'OutsideFault';

  constructor(
    readonly source: 'tsa' | 'revocation',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True for an OutsideFault, also one rebuilt from a worker thread's answer. */
export function isOutsideFault(err: unknown): err is Error {
  return err instanceof Error && err.name === 'OutsideFault';
}
