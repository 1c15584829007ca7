import type { Db, DbOrTrx } from '../../db/handle.js';
import { AppError, validationError } from '../../lib/errors.js';
import { newId, nowIso } from '../../lib/ids.js';
import { requireMembership } from '../tenants/tenants.service.js';
import { changesBetween, recordActivity, type ActivityBy } from '../tenants/activity.js';
import { encryptWebhookSecret, generateWebhookSecret } from './webhook-secret.js';
import { checkCallbackUrl, type UrlPolicy } from './webhook-url.js';
import * as repo from './webhooks.repo.js';

/** What webhook configuration services need. */
export type WebhookDeps = { db: Db; secretKey: string; urlPolicy: UrlPolicy };

/** A webhook configuration as the API shows it (never with its secret). */
export type WebhookView = { id: string; url: string; active: boolean; createdAt: string };

/** Fan-out bound: every event costs one delivery per webhook. */
export const MAX_WEBHOOKS_PER_TENANT = 20;

/** Who is asking, about which tenant. */
type Caller = { tenantId: string; userId: string };
/** A caller making a change, as the activity log records it. */
type Changer = Caller & { by: ActivityBy };

function present(row: repo.WebhookRow): WebhookView {
  return { id: row.id, url: row.url, active: row.active === 1, createdAt: row.created_at };
}

// Every webhook endpoint is owner/admin only; a non-member gets 404 from requireMembership.
async function authorize(deps: WebhookDeps, caller: Caller) {
  await requireMembership(deps.db.kysely, { ...caller, action: 'webhooks.manage' });
}

// The activity entry of a change, written in the change's transaction.
function record(
  trx: DbOrTrx,
  input: Changer,
  action: 'webhook.created' | 'webhook.updated' | 'webhook.deleted' | 'webhook.secret_rotated',
  details: Record<string, unknown>,
) {
  return recordActivity(trx, { tenantId: input.tenantId, action, by: input.by, details });
}

async function assertUrl(deps: WebhookDeps, url: string) {
  const errors = await checkCallbackUrl(url, deps.urlPolicy);
  if (errors.length > 0) throw validationError(errors, 'The callback URL is not allowed.');
}

async function loadWebhook(deps: WebhookDeps, caller: Caller, webhookId: string) {
  const row = await repo.findWebhook(deps.db.kysely, caller.tenantId, webhookId);
  if (!row) throw new AppError('not_found', 'No such webhook.');
  return row;
}

/** Creates a webhook; the only response besides rotation that carries its secret. */
export async function createWebhook(
  deps: WebhookDeps,
  input: Changer & { url: string; active?: boolean },
): Promise<{ webhook: WebhookView; secret: string }> {
  await authorize(deps, input);
  await assertUrl(deps, input.url);
  if ((await repo.listWebhooks(deps.db.kysely, input.tenantId)).length >= MAX_WEBHOOKS_PER_TENANT) {
    throw new AppError('conflict', `A tenant has at most ${MAX_WEBHOOKS_PER_TENANT} webhooks.`);
  }
  const id = newId();
  const secret = generateWebhookSecret();
  const now = nowIso();
  const row: repo.WebhookRow = {
    id,
    tenant_id: input.tenantId,
    url: input.url,
    active: input.active === false ? 0 : 1,
    secret_encrypted: encryptWebhookSecret(deps.secretKey, id, secret),
    created_at: now,
    updated_at: now,
  };
  await deps.db.kysely.transaction().execute(async (trx) => {
    await repo.insertWebhook(trx, row);
    await record(trx, input, 'webhook.created', {
      webhookId: id,
      url: row.url,
      active: !!row.active,
    });
  });
  return { webhook: present(row), secret };
}

/** The tenant's webhooks. */
export async function listWebhooks(deps: WebhookDeps, caller: Caller): Promise<WebhookView[]> {
  await authorize(deps, caller);
  return (await repo.listWebhooks(deps.db.kysely, caller.tenantId)).map(present);
}

/** One webhook. */
export async function getWebhook(
  deps: WebhookDeps,
  input: Caller & { webhookId: string },
): Promise<WebhookView> {
  await authorize(deps, input);
  return present(await loadWebhook(deps, input, input.webhookId));
}

/** Changes the URL and/or the active flag. Pending retries use the new values. */
export async function updateWebhook(
  deps: WebhookDeps,
  input: Changer & { webhookId: string; patch: { url?: string; active?: boolean } },
): Promise<WebhookView> {
  await authorize(deps, input);
  const row = await loadWebhook(deps, input, input.webhookId);
  const { url, active } = input.patch;
  if (url !== undefined) await assertUrl(deps, url);
  const patch = {
    ...(url !== undefined && { url }),
    ...(active !== undefined && { active: active ? 1 : 0 }),
    updated_at: nowIso(),
  };
  const before = present(row);
  const after = present({ ...row, ...patch });
  const changes = changesBetween(before, { url: after.url, active: after.active });
  await deps.db.kysely.transaction().execute(async (trx) => {
    await repo.updateWebhook(trx, row.id, patch);
    if (changes) await record(trx, input, 'webhook.updated', { webhookId: row.id, changes });
  });
  return after;
}

/** Deletes a webhook with its delivery log; its pending attempts find nothing and stop. */
export async function deleteWebhook(deps: WebhookDeps, input: Changer & { webhookId: string }) {
  await authorize(deps, input);
  const row = await loadWebhook(deps, input, input.webhookId);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await repo.deleteWebhook(trx, row.id);
    await record(trx, input, 'webhook.deleted', { webhookId: row.id, url: row.url });
  });
}

/** Replaces the secret at once (the next attempt is signed with the new one) and returns it. */
export async function rotateWebhookSecret(
  deps: WebhookDeps,
  input: Changer & { webhookId: string },
): Promise<{ webhook: WebhookView; secret: string }> {
  await authorize(deps, input);
  const row = await loadWebhook(deps, input, input.webhookId);
  const secret = generateWebhookSecret();
  const patch = {
    secret_encrypted: encryptWebhookSecret(deps.secretKey, row.id, secret),
    updated_at: nowIso(),
  };
  await deps.db.kysely.transaction().execute(async (trx) => {
    await repo.updateWebhook(trx, row.id, patch);
    // The entry says that the secret changed, never what it is.
    await record(trx, input, 'webhook.secret_rotated', { webhookId: row.id, url: row.url });
  });
  return { webhook: present({ ...row, ...patch }), secret };
}
