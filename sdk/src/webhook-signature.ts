// Signet webhook signature: `X-Service-Signature: t=<unix-seconds>,v1=<hex>` where
// v1 = HMAC-SHA256(secret, `${t}.` + raw body bytes). The one implementation of the scheme:
// the server signs deliveries with it and receivers verify them, so it depends on node:crypto
// only and nothing else in the SDK.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Raw request body exactly as received; a string is taken as its UTF-8 bytes. */
export type WebhookRawBody = Buffer | Uint8Array | string;

/** Signature or timestamp problems: the request is not authentic (answer 401). */
export type WebhookSignatureFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'invalid_timestamp'
  | 'invalid_signature_format'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch';

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Signs a raw body for delivery and returns the `X-Service-Signature` header value. */
export function signWebhookPayload(
  secret: string,
  rawBody: WebhookRawBody,
  timestampSeconds: number,
): string {
  assertSecret(secret);
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new TypeError('timestampSeconds must be a non-negative integer (unix seconds)');
  }
  const t = String(timestampSeconds);
  return `t=${t},v1=${computeDigest(secret, t, toBytes(rawBody)).toString('hex')}`;
}

/**
 * Checks a signature header against the raw body: format, two-sided freshness, digest in
 * constant time. Returns the failure, or null when the signature is authentic.
 */
export function checkWebhookSignature(options: {
  rawBody: WebhookRawBody;
  signatureHeader: string | undefined | null;
  secret: string;
  toleranceSeconds: number;
  now: () => number;
}): WebhookSignatureFailure | null {
  const { secret, toleranceSeconds, now } = options;
  assertSecret(secret);
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError('toleranceSeconds must be a finite number >= 0');
  }

  const header = options.signatureHeader?.trim();
  if (!header) return 'missing_header';
  const parsed = parseSignatureHeader(header);
  if (!parsed) return 'malformed_header';
  const { t, v1 } = parsed;
  if (!/^[0-9]+$/.test(t)) return 'invalid_timestamp';
  // Lowercase only, as the spec says: accepting other spellings would make two different
  // header strings valid for one delivery, which nothing needs.
  if (!/^[0-9a-f]{64}$/.test(v1)) return 'invalid_signature_format';

  // Two-sided: a timestamp far in the future is as suspicious as a stale one. Compared in
  // fractional seconds so that exactly `toleranceSeconds` away is still accepted.
  const ageSeconds = Math.abs(now() / 1000 - Number(t));
  if (!(ageSeconds <= toleranceSeconds)) return 'timestamp_out_of_tolerance';

  // Digest the exact bytes received: re-serialized JSON would differ in whitespace or key
  // order and never match.
  const body = toBytes(options.rawBody);
  const expected = computeDigest(secret, t, body);
  const received = Buffer.from(v1, 'hex');
  // Both are 32 bytes here (v1 was checked to be 64 hex characters); the length test keeps
  // timingSafeEqual from throwing should that check ever change.
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
    return 'signature_mismatch';
  }
  return null;
}

function assertSecret(secret: string): void {
  // An empty key would make every signature forgeable; this is a configuration error,
  // so it throws instead of quietly rejecting (or accepting) deliveries.
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('webhook secret must be a non-empty string');
  }
}

/** The body's bytes; a string is taken as UTF-8. */
export function toBytes(rawBody: WebhookRawBody): Buffer {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (Buffer.isBuffer(rawBody)) return rawBody;
  if (rawBody instanceof Uint8Array) {
    return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  }
  throw new TypeError('rawBody must be a Buffer, Uint8Array or string');
}

function computeDigest(secret: string, t: string, body: Buffer): Buffer {
  // Two updates hash the same bytes as Buffer.concat([`${t}.`, body]) without copying the body.
  return createHmac('sha256', secret).update(`${t}.`, 'utf8').update(body).digest();
}

// Exactly one `t` and one `v1`; unknown keys are ignored so that a future scheme (say v2)
// can be added without breaking deployed receivers.
function parseSignatureHeader(header: string): { t: string; v1: string } | null {
  let t: string | undefined;
  let v1: string | undefined;
  for (const rawPart of header.split(',')) {
    const part = rawPart.trim();
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (key === 't') {
      if (t !== undefined) return null;
      t = value;
    } else if (key === 'v1') {
      if (v1 !== undefined) return null;
      v1 = value;
    }
  }
  if (t === undefined || v1 === undefined) return null;
  return { t, v1 };
}
