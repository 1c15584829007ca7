// The client's webhooks (with their deliveries and redelivery) and the events feed.
import type {
  EventPage,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookWithSecret,
} from './client-types.js';
import { typed } from './client-documents.js';
import type { Transport } from './transport.js';
import type { WebhookEvent } from './verify-webhook.js';

/** The webhook methods of a client. */
export function webhooksApi(t: Transport) {
  return {
    /** Adds a callback URL; keep the returned secret, it is shown only here. */
    create: (tenantId: string, input: { url: string; active?: boolean }) =>
      typed<WebhookWithSecret>(t.call('createWebhook', { tenantId }, {}, { json: input })),
    /** The tenant's webhooks (without secrets). */
    list: async (tenantId: string) =>
      (await typed<{ webhooks: Webhook[] }>(t.call('listWebhooks', { tenantId }))).webhooks,
    /** One webhook. */
    get: async (tenantId: string, webhookId: string) =>
      (await typed<{ webhook: Webhook }>(t.call('getWebhook', { tenantId, webhookId }))).webhook,
    /** Changes url and/or active. */
    update: async (
      tenantId: string,
      webhookId: string,
      patch: { url?: string; active?: boolean },
    ) =>
      (
        await typed<{ webhook: Webhook }>(
          t.call('updateWebhook', { tenantId, webhookId }, {}, { json: patch }),
        )
      ).webhook,
    /** Deletes a webhook and its delivery log. */
    delete: (tenantId: string, webhookId: string) =>
      typed<void>(t.call('deleteWebhook', { tenantId, webhookId })),
    /** Replaces the signing secret at once; update your verifier with the returned one. */
    rotateSecret: (tenantId: string, webhookId: string) =>
      typed<WebhookWithSecret>(t.call('rotateWebhookSecret', { tenantId, webhookId })),
    /** A page of deliveries, newest first, each with every attempt. */
    deliveries: (
      tenantId: string,
      webhookId: string,
      page: { limit?: number; cursor?: string } = {},
    ) => typed<WebhookDeliveryPage>(t.call('listWebhookDeliveries', { tenantId, webhookId }, page)),
    /** Starts a fresh series of attempts for an event (same id, same body). */
    redeliver: async (tenantId: string, webhookId: string, eventId: string) =>
      (
        await typed<{ delivery: WebhookDelivery }>(
          t.call('redeliverEvent', { tenantId, webhookId, eventId }),
        )
      ).delivery,
  };
}

/** The events-feed methods of a client. */
export function eventsApi(t: Transport) {
  return {
    /** One page of a tenant's events, in order, after an event id. */
    list: (query: { tenantId: string; after?: string; limit?: number }) =>
      typed<EventPage>(t.call('listEvents', {}, query)),
    /** Every event after `after` (all when omitted), page by page: for reconciliation. */
    async *iterate(query: { tenantId: string; after?: string }): AsyncGenerator<WebhookEvent> {
      let after = query.after;
      for (;;) {
        const page = await typed<EventPage>(
          t.call('listEvents', {}, { tenantId: query.tenantId, after }),
        );
        yield* page.events;
        if (!page.hasMore || page.events.length === 0) return;
        after = page.events[page.events.length - 1].id;
      }
    },
  };
}
