/**
 * A transient fault of something outside the document: the time-stamp authority, or an OCSP
 * responder or CRL server. The document is fine; the same seal may succeed on a later try,
 * so a seal job retries on it instead of failing the document.
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
