// Framework-neutral receiver: turns one delivery into an HTTP status per the receiver table
// of the specification. The adapters (node-adapter.ts, fastify-adapter.ts) only move bytes.
import type { WebhookEventStore } from './event-store.js';
import {
  isSignatureFailure,
  verifyWithSecrets,
  type WebhookEvent,
  type WebhookRawBody,
  type WebhookVerifyFailure,
} from './verify-webhook.js';
import {
  isWebhookSecretOption,
  readHeader,
  resolveWebhookSecrets,
  type WebhookHeaders,
  type WebhookSecretOption,
} from './webhook-secret.js';

export type { WebhookHeaders } from './webhook-secret.js';

export type WebhookDeliveryContext = {
  /** `X-Service-Webhook-Attempt` (1, 2 or 3), or null when absent or not a number. */
  attempt: number | null;
};

export type WebhookReceiverOptions = {
  /**
   * The webhook's secret (several during a rotation: any one may match), or, for a receiver
   * of many tenants, a function `(tenantId, headers) => secret` (may be async) returning the
   * secret of the tenant the delivery names: see WebhookSecretResolver.
   */
  secret: WebhookSecretOption;
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
  | 'raw_body_unavailable'
  | 'secret_lookup_failed';

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
  let secrets: readonly string[] | null;
  try {
    secrets = await resolveWebhookSecrets(options.secret, options.rawBody, headers);
  } catch {
    // The resolver's own failure (its database is down…): 500, so that the service retries.
    return reject(500, 'secret_lookup_failed');
  }
  if (!secrets) return reject(401, 'unknown_tenant');
  const verified = verifyWithSecrets(
    {
      rawBody: options.rawBody,
      signatureHeader: readHeader(headers, 'x-service-signature'),
      toleranceSeconds: options.toleranceSeconds,
      now: options.now,
    },
    secrets,
  );
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
  if (!isWebhookSecretOption(options.secret)) {
    throw new TypeError(
      'webhook secret must be a non-empty string, an array of them, or a function returning them',
    );
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
