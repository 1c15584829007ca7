import type { WebhookDelivery } from '../../server/src/api-types.js';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { recordStatusChange } from '../../server/src/modules/events/events.service.js';
import type { TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';

/** Test schedule: short, with attempt 2 due before a timed-out attempt 1 ends (overrun). */
export const WEBHOOK_TEST_ENV = {
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: '0,300,1200',
  WEBHOOK_TIMEOUT_MS: '400',
};

/** A one-page PDF with a correct xref table, built by hand. */
export function minimalPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
  ];
  let out = '%PDF-1.7\n';
  const offsets = objects.map((body, i) => {
    const offset = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** An owner with an API key and a tenant. */
export async function setupTenant(ctx: TestContext) {
  const owner = await createUser(ctx);
  const tenant = await createTenant(ctx, owner.apiKey);
  return { owner, tenant };
}

/** Adds a webhook through the API; returns its id and secret. */
export async function addWebhook(ctx: TestContext, apiKey: string, tenantId: string, url: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/tenants/${tenantId}/webhooks`,
    headers: { 'x-api-key': apiKey },
    payload: { url },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().webhook.id as string, secret: res.json().secret as string };
}

/** True once the documents module serves quick-create and send-for-signing. */
export function documentsAvailable(ctx: TestContext): boolean {
  return (
    ctx.app.hasRoute({ method: 'POST', url: '/api/documents/quick-create' }) &&
    ctx.app.hasRoute({ method: 'POST', url: '/api/documents/:documentId/send-for-signing' })
  );
}

/**
 * Makes a `document.status_changed` (draft → in_process) the way a client does: quick-create,
 * then send-for-signing, over HTTP. Returns the ids and the time the sending request returned
 * (after its commit). Without the documents module it records the change directly.
 */
export async function triggerDocumentEvent(ctx: TestContext, apiKey: string, tenantId: string) {
  if (!documentsAvailable(ctx)) {
    const documentId = randomUUID();
    const event = await ctx.db.kysely.transaction().execute((trx) =>
      recordStatusChange(trx, {
        tenantId,
        documentId,
        oldStatus: 'draft',
        newStatus: 'in_process',
      }),
    );
    ctx.deps.jobs.wake();
    return { eventId: event.id, documentId, signeeIds: [] as string[], committedAt: Date.now() };
  }
  const form = new FormData();
  form.append('tenantId', tenantId);
  form.append('signees', JSON.stringify([{ email: 'alice@example.com', name: 'Alice Example' }]));
  form.append(
    'file',
    new Blob([new Uint8Array(minimalPdf())], { type: 'application/pdf' }),
    'c.pdf',
  );
  const encoded = new Response(form);
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/documents/quick-create',
    headers: {
      'x-api-key': apiKey,
      accept: 'application/json',
      'content-type': encoded.headers.get('content-type') ?? '',
    },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  expect(created.statusCode, created.body).toBe(201);
  const documentId = created.json().document.id as string;
  const signeeIds = (created.json().signees as Array<{ id: string }>).map((s) => s.id);
  const sent = await ctx.app.inject({
    method: 'POST',
    url: `/api/documents/${documentId}/send-for-signing`,
    headers: { 'x-api-key': apiKey },
  });
  const committedAt = Date.now();
  expect(sent.statusCode, sent.body).toBe(200);
  const event = await ctx.db.kysely
    .selectFrom('events')
    .select('id')
    .where('document_id', '=', documentId)
    .where('type', '=', 'document.status_changed')
    .executeTakeFirstOrThrow();
  return { eventId: event.id, documentId, signeeIds, committedAt };
}

/** Records a signee status change (pending → signed) the way the signing flow does. */
export async function triggerSigneeEvent(
  ctx: TestContext,
  input: { tenantId: string; documentId: string; signeeId?: string },
) {
  const event = await ctx.db.kysely.transaction().execute((trx) =>
    recordStatusChange(trx, {
      tenantId: input.tenantId,
      documentId: input.documentId,
      signeeId: input.signeeId ?? randomUUID(),
      oldStatus: 'pending',
      newStatus: 'signed',
    }),
  );
  ctx.deps.jobs.wake();
  return event.id;
}

/** A webhook's delivery log through the API. */
export async function listDeliveries(
  ctx: TestContext,
  apiKey: string,
  tenantId: string,
  webhookId: string,
) {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/tenants/${tenantId}/webhooks/${webhookId}/deliveries`,
    headers: { 'x-api-key': apiKey },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().deliveries as DeliveryJson[];
}

/** A delivery as the API returns it. */
export type DeliveryJson = WebhookDelivery;

/** Polls the delivery log until the delivery of `eventId` is no longer pending. */
export async function waitForDelivery(
  ctx: TestContext,
  apiKey: string,
  tenantId: string,
  webhookId: string,
  eventId: string,
  timeoutMs = 10_000,
): Promise<DeliveryJson> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const all = await listDeliveries(ctx, apiKey, tenantId, webhookId);
    const done = all.find((d) => d.eventId === eventId && d.status !== 'pending');
    if (done) return done;
    if (Date.now() > end) throw new Error(`delivery of ${eventId} still pending`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
