// Signet webhook signature: `X-Service-Signature: t=<unix-seconds>,v1=<hex>` where
// v1 = HMAC-SHA256(secret, `${t}.` + raw body bytes). This file is shared by the server
// (signing deliveries) and receivers (verifying them), so it depends on node:crypto only.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Raw request body exactly as received; a string is taken as its UTF-8 bytes. */
export type WebhookRawBody = Buffer | Uint8Array | string;

export type WebhookEventType = 'document.status_changed' | 'signee.status_changed';

/** Event types this SDK version understands; others are verified but reported as unsupported. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  'document.status_changed',
  'signee.status_changed',
];

// Status strings stay `string`: the service may add statuses (e.g. `declined`,
// `cancelled`) and a receiver must not start rejecting signed events when it does.
export type DocumentStatusChangedEvent = {
  id: string;
  type: 'document.status_changed';
  occurredAt: string;
  tenantId: string;
  data: {
    documentId: string;
    signeeId?: undefined;
    oldStatus: string;
    newStatus: string;
    changedAt: string;
  };
};

export type SigneeStatusChangedEvent = {
  id: string;
  type: 'signee.status_changed';
  occurredAt: string;
  tenantId: string;
  data: {
    documentId: string;
    signeeId: string;
    oldStatus: string;
    newStatus: string;
    changedAt: string;
  };
};

/** The webhook event envelope of the specification, discriminated by `type`. */
export type WebhookEvent = DocumentStatusChangedEvent | SigneeStatusChangedEvent;

/** Signature or timestamp problems: the request is not authentic (answer 401). */
export type WebhookSignatureFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'invalid_timestamp'
  | 'invalid_signature_format'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch';

/** Authentic request whose body is not a usable event. */
export type WebhookPayloadFailure = 'invalid_json' | 'invalid_payload' | 'unsupported_event_type';

export type WebhookVerifyFailure = WebhookSignatureFailure | WebhookPayloadFailure;

export type VerifyWebhookResult =
  { ok: true; event: WebhookEvent } | { ok: false; reason: WebhookVerifyFailure };

export type VerifyWebhookOptions = {
  rawBody: WebhookRawBody;
  signatureHeader: string | undefined | null;
  secret: string;
  /** Accepted clock difference in seconds, either side of `now`. Default 300. */
  toleranceSeconds?: number;
  /** Current time in milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
};

export const DEFAULT_TOLERANCE_SECONDS = 300;

const SIGNATURE_FAILURES: ReadonlySet<string> = new Set<WebhookSignatureFailure>([
  'missing_header',
  'malformed_header',
  'invalid_timestamp',
  'invalid_signature_format',
  'timestamp_out_of_tolerance',
  'signature_mismatch',
]);

/** True when the failure means the request could not be authenticated. */
export function isSignatureFailure(
  reason: WebhookVerifyFailure,
): reason is WebhookSignatureFailure {
  return SIGNATURE_FAILURES.has(reason);
}

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

/** Verifies a delivery per the specification, then parses and checks the event envelope. */
export function verifyWebhook(options: VerifyWebhookOptions): VerifyWebhookResult {
  const { secret, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Date.now } = options;
  assertSecret(secret);
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError('toleranceSeconds must be a finite number >= 0');
  }

  const header = options.signatureHeader?.trim();
  if (!header) return fail('missing_header');
  const parsed = parseSignatureHeader(header);
  if (!parsed) return fail('malformed_header');
  const { t, v1 } = parsed;
  if (!/^[0-9]+$/.test(t)) return fail('invalid_timestamp');
  // Lowercase only, as the spec says: accepting other spellings would make two different
  // header strings valid for one delivery, which nothing needs.
  if (!/^[0-9a-f]{64}$/.test(v1)) return fail('invalid_signature_format');

  // Two-sided: a timestamp far in the future is as suspicious as a stale one. Compared in
  // fractional seconds so that exactly `toleranceSeconds` away is still accepted.
  const ageSeconds = Math.abs(now() / 1000 - Number(t));
  if (!(ageSeconds <= toleranceSeconds)) return fail('timestamp_out_of_tolerance');

  // Digest the exact bytes received: re-serialized JSON would differ in whitespace or key
  // order and never match.
  const body = toBytes(options.rawBody);
  const expected = computeDigest(secret, t, body);
  const received = Buffer.from(v1, 'hex');
  // Both are 32 bytes here (v1 was checked to be 64 hex characters); the length test keeps
  // timingSafeEqual from throwing should that check ever change.
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
    return fail('signature_mismatch');
  }

  // Only now is the body trusted enough to parse.
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return fail('invalid_json');
  }
  return parseEnvelope(payload);
}

function fail(reason: WebhookVerifyFailure): VerifyWebhookResult {
  return { ok: false, reason };
}

function assertSecret(secret: string): void {
  // An empty key would make every signature forgeable; this is a configuration error,
  // so it throws instead of quietly rejecting (or accepting) deliveries.
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('webhook secret must be a non-empty string');
  }
}

function toBytes(rawBody: WebhookRawBody): Buffer {
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

// Checks the envelope fields the handler relies on; extra fields are allowed so that the
// service can add some without breaking receivers.
function parseEnvelope(payload: unknown): VerifyWebhookResult {
  if (!isRecord(payload) || !isRecord(payload.data)) return fail('invalid_payload');
  const { id, type, occurredAt, tenantId, data } = payload;
  if (
    !isNonEmptyString(id) ||
    !isNonEmptyString(type) ||
    typeof occurredAt !== 'string' ||
    typeof tenantId !== 'string'
  ) {
    return fail('invalid_payload');
  }
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
    return fail('unsupported_event_type');
  }
  const { documentId, signeeId, oldStatus, newStatus, changedAt } = data;
  if (
    !isNonEmptyString(documentId) ||
    typeof oldStatus !== 'string' ||
    typeof newStatus !== 'string' ||
    typeof changedAt !== 'string'
  ) {
    return fail('invalid_payload');
  }
  const common = { id, occurredAt, tenantId };
  if (type === 'signee.status_changed') {
    if (!isNonEmptyString(signeeId)) return fail('invalid_payload');
    const eventData = { documentId, signeeId, oldStatus, newStatus, changedAt };
    return { ok: true, event: { ...common, type, data: eventData } };
  }
  const eventData = { documentId, oldStatus, newStatus, changedAt };
  return { ok: true, event: { ...common, type: 'document.status_changed', data: eventData } };
}
