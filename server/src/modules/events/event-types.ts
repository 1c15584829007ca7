// The event types and what they carry; no imports, so schemas can use them at load time.

/** The seed's events: `document.status_changed` always goes out, `signee.status_changed` on opt-in. */
export const SEED_EVENT_TYPES = ['document.status_changed', 'signee.status_changed'] as const;

/** Events a tenant receives only when its `webhookEvents` names them (decisions §12). */
export const OPT_IN_EVENT_TYPES = [
  'signee.viewed',
  'signee.reminded',
  'email.failed',
  'bulk_send.completed',
] as const;

/** Every name `webhookEvents` accepts. */
export const WEBHOOK_EVENT_NAMES = [...SEED_EVENT_TYPES, ...OPT_IN_EVENT_TYPES] as const;

/** A name `webhookEvents` accepts. */
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];
/** An event type that is recorded only for tenants that opted in. */
export type OptInEventType = (typeof OPT_IN_EVENT_TYPES)[number];

/**
 * `email.failed`'s `data.kind`: the outbox row's own kind for an e-mail to a signee (the
 * mail audit's kinds), `notice` for one that is not to a signee (the sender's notices).
 */
export const EMAIL_FAILED_KINDS = [
  'invitation',
  'reminder',
  'declined',
  'cancelled',
  'copy',
  'notice',
] as const;

/** A kind `email.failed` reports. */
export type EmailFailedKind = (typeof EMAIL_FAILED_KINDS)[number];

/** The `data` of each opt-in event. */
export type OptInEventData = {
  'signee.viewed': { documentId: string; signeeId: string; viewedAt: string };
  'signee.reminded': { documentId: string; signeeId: string; remindedAt: string };
  'email.failed': {
    documentId: string | null;
    signeeId: string | null;
    email: string;
    kind: EmailFailedKind;
    error: string;
    failedAt: string;
  };
  'bulk_send.completed': {
    id: string;
    templateId: string;
    total: number;
    created: number;
    failed: number;
  };
};

/** The stored form of `webhookEvents`: deduplicated, in the canonical order above. */
export function normalizeWebhookEvents(names: readonly WebhookEventName[]): string {
  return JSON.stringify(WEBHOOK_EVENT_NAMES.filter((n) => names.includes(n)));
}

/** `webhookEvents` as stored on the tenant row (unknown names from an older release dropped). */
export function parseWebhookEvents(stored: string): WebhookEventName[] {
  const names = JSON.parse(stored) as string[];
  return WEBHOOK_EVENT_NAMES.filter((n) => names.includes(n));
}
