// Test fixtures: signed deliveries and real servers on 127.0.0.1, port 0.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhookPayload, type WebhookEvent } from '../src/index.js';

export const SECRET = 'whsec_test_0123456789abcdef';

/** Builds a document.status_changed envelope with a fresh id. */
export function buildEvent(overrides: Partial<WebhookEvent> = {}): WebhookEvent {
  return {
    id: randomUUID(),
    type: 'document.status_changed',
    occurredAt: '2025-01-01T00:00:00.000Z',
    tenantId: randomUUID(),
    data: {
      documentId: randomUUID(),
      oldStatus: 'draft',
      newStatus: 'in_process',
      changedAt: '2025-01-01T00:00:00.000Z',
      externalId: null,
      metadata: null,
    },
    ...overrides,
  } as WebhookEvent;
}

export type Delivery = { body: string; headers: Record<string, string> };

/** Serializes and signs a payload the way the service delivers it. */
export function buildDelivery(
  payload: { id: string; type: string } & Record<string, unknown>,
  options: { secret?: string; timestampSeconds?: number; attempt?: number } = {},
): Delivery {
  const body = JSON.stringify(payload);
  const t = options.timestampSeconds ?? Math.floor(Date.now() / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-service-signature': signWebhookPayload(options.secret ?? SECRET, body, t),
      'x-service-webhook-attempt': String(options.attempt ?? 1),
      'x-service-webhook-event': payload.type,
      'x-service-webhook-id': payload.id,
    },
  };
}

/** POSTs a delivery with fetch and returns status and parsed JSON body. */
export async function post(
  url: string,
  delivery: Delivery,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: delivery.headers,
    body: delivery.body,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** Starts a node:http server on an ephemeral loopback port. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A promise with its resolve exposed, to hold a handler mid-flight. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
