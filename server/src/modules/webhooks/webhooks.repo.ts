import type { Selectable } from 'kysely';
import type { EventsTable, WebhooksTable } from '../../db/schema.js';
import type { DbOrTrx } from '../../db/handle.js';

/** A webhook configuration row. */
export type WebhookRow = Selectable<WebhooksTable>;

/** Inserts a webhook configuration. */
export async function insertWebhook(db: DbOrTrx, row: WebhookRow) {
  await db.insertInto('webhooks').values(row).execute();
}

/** A tenant's webhooks, oldest first. */
export function listWebhooks(db: DbOrTrx, tenantId: string) {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** One webhook of a tenant, or undefined (another tenant's webhook is not found either). */
export function findWebhook(db: DbOrTrx, tenantId: string, webhookId: string) {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', webhookId)
    .executeTakeFirst();
}

/** Changes columns of a webhook. */
export async function updateWebhook(
  db: DbOrTrx,
  webhookId: string,
  patch: Partial<Omit<WebhookRow, 'id' | 'tenant_id' | 'created_at'>>,
) {
  await db.updateTable('webhooks').set(patch).where('id', '=', webhookId).execute();
}

/** Deletes a webhook; its deliveries and attempts go with it (foreign-key cascade). */
export async function deleteWebhook(db: DbOrTrx, webhookId: string) {
  await db.deleteFrom('webhooks').where('id', '=', webhookId).execute();
}

/**
 * The webhooks an event goes to: the tenant's active ones; for `signee.status_changed` only
 * when the tenant opted in (`signeeEvents`, or the type named in `webhookEvents`). Opt-in
 * events (opt-in-events.ts) are recorded only for tenants that asked for them.
 */
export function findWebhooksForEvent(
  db: DbOrTrx,
  event: { tenantId: string; type: EventsTable['type'] },
) {
  let query = db
    .selectFrom('webhooks')
    .innerJoin('tenants', 'tenants.id', 'webhooks.tenant_id')
    .select('webhooks.id')
    .where('webhooks.tenant_id', '=', event.tenantId)
    .where('webhooks.active', '=', 1);
  if (event.type === 'signee.status_changed') {
    // webhook_events is stored normalised (normalizeWebhookEvents): the quoted name is exact.
    query = query.where((eb) =>
      eb.or([
        eb('tenants.signee_events', '=', 1),
        eb('tenants.webhook_events', 'like', '%"signee.status_changed"%'),
      ]),
    );
  }
  return query.execute();
}
