// Verifying a Signet webhook delivery: the signature (webhook-signature.ts), then the event
// envelope of the specification.
import {
  DEFAULT_TOLERANCE_SECONDS,
  checkWebhookSignature,
  toBytes,
  type WebhookRawBody,
  type WebhookSignatureFailure,
} from './webhook-signature.js';
import {
  resolveWebhookSecrets,
  type WebhookHeaders,
  type WebhookSecretResolver,
  type WebhookSecrets,
} from './webhook-secret.js';

export {
  DEFAULT_TOLERANCE_SECONDS,
  signWebhookPayload,
  type WebhookRawBody,
  type WebhookSignatureFailure,
} from './webhook-signature.js';

export type WebhookEventType = WebhookEvent['type'];

/** Event types this SDK version understands; others are verified but reported as unsupported. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  'document.status_changed',
  'signee.status_changed',
  'signee.viewed',
  'signee.reminded',
  'email.failed',
  'bulk_send.completed',
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
    /** The document's externalId at the change; null when it has none. */
    externalId: string | null;
    /** The document's metadata at the change; null when it has none. */
    metadata: Record<string, string> | null;
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
    externalId: string | null;
    metadata: Record<string, string> | null;
  };
};

type OptIn<Type extends string, Data> = {
  id: string;
  type: Type;
  occurredAt: string;
  tenantId: string;
  data: Data;
};

/** A signee's first opening of the signing page (opt-in: tenant setting `webhookEvents`). */
export type SigneeViewedEvent = OptIn<
  'signee.viewed',
  { documentId: string; signeeId: string; viewedAt: string }
>;
/** A reminder sent to a signee (opt-in). */
export type SigneeRemindedEvent = OptIn<
  'signee.reminded',
  { documentId: string; signeeId: string; remindedAt: string }
>;
/** An e-mail the outbox gave up on: a permanent 5xx, or its last attempt failed (opt-in). */
export type EmailFailedEvent = OptIn<
  'email.failed',
  {
    /** null for an e-mail not to a signee (kind `notice`). */
    documentId: string | null;
    /** null for an e-mail not to a signee (kind `notice`). */
    signeeId: string | null;
    email: string;
    /** `notice`: the sender's notices and team invitations. */
    kind: 'invitation' | 'reminder' | 'declined' | 'cancelled' | 'copy' | 'notice';
    error: string;
    failedAt: string;
  }
>;
/** A bulk send that created every row it could (opt-in). */
export type BulkSendCompletedEvent = OptIn<
  'bulk_send.completed',
  { id: string; templateId: string; total: number; created: number; failed: number }
>;

/** The webhook event envelope of the specification, discriminated by `type`. */
export type WebhookEvent =
  | DocumentStatusChangedEvent
  | SigneeStatusChangedEvent
  | SigneeViewedEvent
  | SigneeRemindedEvent
  | EmailFailedEvent
  | BulkSendCompletedEvent;

// The data fields each opt-in event must carry, and their kinds ('string?' may be null).
const OPT_IN_FIELDS: Record<string, Record<string, 'string' | 'string?' | 'number'>> = {
  'signee.viewed': { documentId: 'string', signeeId: 'string', viewedAt: 'string' },
  'signee.reminded': { documentId: 'string', signeeId: 'string', remindedAt: 'string' },
  'email.failed': {
    documentId: 'string?',
    signeeId: 'string?',
    email: 'string',
    kind: 'string',
    error: 'string',
    failedAt: 'string',
  },
  'bulk_send.completed': {
    id: 'string',
    templateId: 'string',
    total: 'number',
    created: 'number',
    failed: 'number',
  },
};

function hasFields(data: Record<string, unknown>, fields: Record<string, string>): boolean {
  return Object.entries(fields).every(([name, kind]) => {
    const value = data[name];
    if (kind === 'number') return typeof value === 'number';
    if (kind === 'string?' && value === null) return true;
    return typeof value === 'string';
  });
}

/** Authentic request whose body is not a usable event. */
export type WebhookPayloadFailure = 'invalid_json' | 'invalid_payload' | 'unsupported_event_type';

/**
 * With a secret resolver: the payload names no tenant, or one the resolver does not know.
 * Unauthenticated like a signature failure (answer 401).
 */
export type WebhookTenantFailure = 'unknown_tenant';

export type WebhookVerifyFailure =
  WebhookSignatureFailure | WebhookTenantFailure | WebhookPayloadFailure;

export type VerifyWebhookResult =
  { ok: true; event: WebhookEvent } | { ok: false; reason: WebhookVerifyFailure };

export type VerifyWebhookOptions = {
  rawBody: WebhookRawBody;
  signatureHeader: string | undefined | null;
  /** The webhook's secret; several during a rotation (any one may match). */
  secret: WebhookSecrets;
  /** Accepted clock difference in seconds, either side of `now`. Default 300. */
  toleranceSeconds?: number;
  /** Current time in milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
};

/** verifyWebhook for many tenants: the secret is looked up for the payload's tenant. */
export type VerifyWebhookTenantOptions = Omit<VerifyWebhookOptions, 'secret'> & {
  secret: WebhookSecretResolver;
  /** The request's headers, handed to the resolver. */
  headers?: WebhookHeaders;
};

const SIGNATURE_FAILURES: ReadonlySet<string> = new Set<WebhookSignatureFailure | 'unknown_tenant'>(
  [
    'missing_header',
    'malformed_header',
    'invalid_timestamp',
    'invalid_signature_format',
    'timestamp_out_of_tolerance',
    'signature_mismatch',
    'unknown_tenant',
  ],
);

/** True when the failure means the request could not be authenticated. */
export function isSignatureFailure(
  reason: WebhookVerifyFailure,
): reason is WebhookSignatureFailure | WebhookTenantFailure {
  return SIGNATURE_FAILURES.has(reason);
}

/**
 * Verifies a delivery per the specification, then parses and checks the event envelope. With
 * a function as `secret` (one secret per tenant) it answers a Promise: the function is given
 * the payload's tenantId and returns that tenant's secret, which then verifies the signature.
 */
export function verifyWebhook(options: VerifyWebhookOptions): VerifyWebhookResult;
export function verifyWebhook(options: VerifyWebhookTenantOptions): Promise<VerifyWebhookResult>;
export function verifyWebhook(
  options: VerifyWebhookOptions | VerifyWebhookTenantOptions,
): VerifyWebhookResult | Promise<VerifyWebhookResult> {
  const { secret } = options;
  if (typeof secret !== 'function') return verifyWithSecrets(options, secret);
  const headers = (options as VerifyWebhookTenantOptions).headers ?? {};
  return resolveWebhookSecrets(secret, options.rawBody, headers).then((secrets) =>
    secrets ? verifyWithSecrets(options, secrets) : fail('unknown_tenant'),
  );
}

/** Verifies with each secret in turn until one matches (a rotation's old and new secret). */
export function verifyWithSecrets(
  options: Omit<VerifyWebhookOptions, 'secret'>,
  secrets: WebhookSecrets,
): VerifyWebhookResult {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (list.length === 0) throw new TypeError('at least one webhook secret is required');
  let result: VerifyWebhookResult | undefined;
  for (const secret of list) {
    result = verifyOne({ ...options, secret });
    // Every other failure is the same whatever the secret, so only a mismatch tries the next.
    if (result.ok || result.reason !== 'signature_mismatch') return result;
  }
  return result as VerifyWebhookResult;
}

function verifyOne(options: VerifyWebhookOptions & { secret: string }): VerifyWebhookResult {
  const { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Date.now } = options;
  const failure = checkWebhookSignature({ ...options, toleranceSeconds, now });
  if (failure) return fail(failure);
  const body = toBytes(options.rawBody);

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
  const optIn = OPT_IN_FIELDS[type];
  if (optIn) {
    if (!hasFields(data, optIn)) return fail('invalid_payload');
    // Checked field by field just above against the type's own list.
    const event = { id, type, occurredAt, tenantId, data } as unknown as WebhookEvent;
    return { ok: true, event };
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
  // Absent in events recorded before the service sent them: null, as for a document without.
  const externalId = typeof data.externalId === 'string' ? data.externalId : null;
  const metadata = isRecord(data.metadata) ? (data.metadata as Record<string, string>) : null;
  const references = { externalId, metadata };
  if (type === 'signee.status_changed') {
    if (!isNonEmptyString(signeeId)) return fail('invalid_payload');
    const eventData = { documentId, signeeId, oldStatus, newStatus, changedAt, ...references };
    return { ok: true, event: { ...common, type, data: eventData } };
  }
  const eventData = { documentId, oldStatus, newStatus, changedAt, ...references };
  return { ok: true, event: { ...common, type: 'document.status_changed', data: eventData } };
}
