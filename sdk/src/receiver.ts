// Framework-neutral receiver: turns one delivery into an HTTP status per the receiver table
// of the specification. The adapters (node-adapter.ts, fastify-adapter.ts) only move bytes.
import type { WebhookEventStore } from './event-store.js';
import {
  isSignatureFailure,
  verifyWebhook,
  type VerifyWebhookResult,
  type WebhookEvent,
  type WebhookRawBody,
  type WebhookVerifyFailure,
} from './verify-webhook.js';

/** Node's `req.headers` (any key case) or a fetch `Headers`. */
export type WebhookHeaders =
  Record<string, string | string[] | undefined> | { get(name: string): string | null };

export type WebhookDeliveryContext = {
  /** `X-Service-Webhook-Attempt` (1, 2 or 3), or null when absent or not a number. */
  attempt: number | null;
};

export type WebhookReceiverOptions = {
  /** The tenant's webhook secret. Pass several during a rotation: any one may match. */
  secret: string | readonly string[];
  store: WebhookEventStore;
  /** Do the work. Throw to answer 500 so that the service retries; keep it idempotent. */
  onEvent: (event: WebhookEvent, context: WebhookDeliveryContext) => void | Promise<void>;
  /** Sees errors thrown by `onEvent` or the store (the HTTP answer never includes them). */
  onError?: (error: unknown, event: WebhookEvent) => void;
  /** Default 300, the reference verifier's. */
  toleranceSeconds?: number;
  /**
   * Answer 400 to a verified event of a type this SDK does not know. Default false:
   * answer 200 and ignore it, because a non-2xx only makes the service retry an event
   * the receiver will never handle.
   */
  rejectUnknownEvents?: boolean;
  /** Current time in milliseconds; for tests. */
  now?: () => number;
};

export type HandleWebhookOptions = WebhookReceiverOptions & {
  rawBody: WebhookRawBody;
  headers: WebhookHeaders;
};

export type WebhookErrorCode =
  | WebhookVerifyFailure
  | 'webhook_id_mismatch'
  | 'event_type_mismatch'
  | 'processing_failed'
  | 'payload_too_large'
  | 'method_not_allowed'
  | 'raw_body_unavailable';

export type WebhookResponseBody =
  | { received: true; status: 'processed' | 'duplicate'; eventId: string }
  | { received: true; status: 'ignored'; reason: 'unsupported_event_type' }
  | { received: false; error: WebhookErrorCode };

export type WebhookHandlerResult = { status: number; body: WebhookResponseBody };

// Events being processed right now, per store: a second delivery of the same id waits for
// the first instead of running onEvent in parallel. Keyed by store so that independent
// receivers in one process do not block each other, and weakly so that a dropped store
// takes its map with it.
const inFlightByStore = new WeakMap<WebhookEventStore, Map<string, Promise<void>>>();

/** Verifies, dedupes and dispatches one delivery; returns the HTTP status and JSON body to send. */
export async function handleWebhook(options: HandleWebhookOptions): Promise<WebhookHandlerResult> {
  const { headers, store, rejectUnknownEvents = false } = options;
  const verified = verifyAnySecret(options, readHeader(headers, 'x-service-signature'));
  if (!verified.ok) {
    const { reason } = verified;
    if (isSignatureFailure(reason)) return reject(401, reason);
    if (reason === 'unsupported_event_type' && !rejectUnknownEvents) {
      return { status: 200, body: { received: true, status: 'ignored', reason } };
    }
    return reject(400, reason);
  }
  const { event } = verified;

  // These headers are not covered by the signature; the signed payload is authoritative,
  // and a disagreement means a broken proxy or a tampered request, never a valid delivery.
  if (readHeader(headers, 'x-service-webhook-id') !== event.id) {
    return reject(400, 'webhook_id_mismatch');
  }
  if (readHeader(headers, 'x-service-webhook-event') !== event.type) {
    return reject(400, 'event_type_mismatch');
  }
  const attemptHeader = readHeader(headers, 'x-service-webhook-attempt');
  const context = {
    attempt: attemptHeader && /^[0-9]+$/.test(attemptHeader) ? Number(attemptHeader) : null,
  };

  let inFlight = inFlightByStore.get(store);
  if (!inFlight) {
    inFlight = new Map();
    inFlightByStore.set(store, inFlight);
  }
  for (;;) {
    const pending = inFlight.get(event.id);
    if (pending) {
      // Wait, then look again: if the first delivery succeeded this one is a duplicate,
      // if it failed this one gets its turn to process.
      await pending;
      continue;
    }
    // Claim synchronously (no await between get and set), and consult the store only
    // after claiming, so that no second caller can slip in between check and work.
    let release = (): void => {};
    inFlight.set(
      event.id,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    try {
      if (await store.has(event.id)) {
        return { status: 200, body: { received: true, status: 'duplicate', eventId: event.id } };
      }
      await options.onEvent(event, context);
      // Marked only after success: a failed onEvent must run again on the retry.
      await store.add(event.id);
      return { status: 200, body: { received: true, status: 'processed', eventId: event.id } };
    } catch (error) {
      report(options, error, event);
      return reject(500, 'processing_failed');
    } finally {
      inFlight.delete(event.id);
      release();
    }
  }
}

/** Throws at setup time when the options could never verify or handle a delivery. */
export function assertReceiverOptions(options: WebhookReceiverOptions): void {
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  if (
    !Array.isArray(secrets) ||
    secrets.length === 0 ||
    secrets.some((s) => typeof s !== 'string' || s.length === 0)
  ) {
    throw new TypeError('webhook secret must be a non-empty string or array of them');
  }
  if (typeof options.store?.has !== 'function' || typeof options.store.add !== 'function') {
    throw new TypeError('store must implement has(id) and add(id)');
  }
  if (typeof options.onEvent !== 'function') throw new TypeError('onEvent must be a function');
}

function reject(status: number, error: WebhookErrorCode): WebhookHandlerResult {
  return { status, body: { received: false, error } };
}

function report(options: WebhookReceiverOptions, error: unknown, event: WebhookEvent): void {
  try {
    options.onError?.(error, event);
  } catch {
    // A failing logger must not change the answer to the service.
  }
}

function verifyAnySecret(
  options: HandleWebhookOptions,
  signatureHeader: string | undefined,
): VerifyWebhookResult {
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  if (secrets.length === 0) throw new TypeError('at least one webhook secret is required');
  let result: VerifyWebhookResult | undefined;
  for (const secret of secrets) {
    result = verifyWebhook({
      rawBody: options.rawBody,
      signatureHeader,
      secret,
      toleranceSeconds: options.toleranceSeconds,
      now: options.now,
    });
    // Every other failure is the same whatever the secret, so only a mismatch tries the next.
    if (result.ok || result.reason !== 'signature_mismatch') return result;
  }
  return result as VerifyWebhookResult;
}

// Case-insensitive; repeated values are joined the way Node joins them, so that two
// signature headers read as one malformed header instead of one of them being picked.
function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  const lower = name.toLowerCase();
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null }).get(lower) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  let value = record[lower];
  if (value === undefined) {
    const key = Object.keys(record).find((k) => k.toLowerCase() === lower);
    value = key === undefined ? undefined : record[key];
  }
  if (Array.isArray(value)) return value.join(', ');
  return value;
}
