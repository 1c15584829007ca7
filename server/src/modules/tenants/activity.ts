import type { Db, DbOrTrx } from '../../db/handle.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { newId, nowIso } from '../../lib/ids.js';
import * as repo from './activity.repo.js';
import { requireMembership } from './tenants.service.js';

/**
 * Every action the activity log records (docs/api.md says what each one's `details` hold).
 * Details name what changed by ids, names and old and new values, never by a secret.
 */
export const ACTIVITY_ACTIONS = [
  'tenant.created',
  'tenant.renamed',
  'member.added',
  'member.removed',
  'member.role_changed',
  'invitation.created',
  'invitation.revoked',
  'invitation.accepted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'settings.updated',
  'logo.updated',
  'logo.removed',
  'identity_keys.updated',
  'template.created',
  'template.updated',
  'template.deleted',
  'api_key.created',
  'api_key.revoked',
] as const;

/** One of ACTIVITY_ACTIONS. */
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** Who made a change and from where: the account, the API key if one was used, the IP. */
export type ActivityBy = { userId: string; apiKeyId: string | null; ip: string | null };

/** JSON details of an entry. */
export type ActivityDetails = Record<string, unknown>;

async function rowsFor(
  trx: DbOrTrx,
  tenantIds: string[],
  entry: { action: ActivityAction; by: ActivityBy; details: ActivityDetails },
): Promise<repo.ActivityRow[]> {
  const email = await repo.actorEmail(trx, entry.by.userId);
  const createdAt = nowIso();
  const details = JSON.stringify(entry.details);
  return tenantIds.map((tenantId) => ({
    id: newId(),
    tenant_id: tenantId,
    action: entry.action,
    actor_user_id: entry.by.userId,
    actor_email: email,
    actor_api_key_id: entry.by.apiKeyId,
    ip: entry.by.ip,
    details,
    created_at: createdAt,
  }));
}

/**
 * Writes one entry. Call it inside the transaction that makes the change, after the change's
 * checks: the change and its entry are committed, or refused, together.
 */
export async function recordActivity(
  trx: DbOrTrx,
  entry: { tenantId: string; action: ActivityAction; by: ActivityBy; details: ActivityDetails },
): Promise<void> {
  await repo.insertActivity(trx, await rowsFor(trx, [entry.tenantId], entry));
}

/**
 * Writes the entry into every tenant the acting user is a member of: an API key is the
 * user's, and acts in each of their tenants.
 */
export async function recordUserActivity(
  trx: DbOrTrx,
  entry: { action: ActivityAction; by: ActivityBy; details: ActivityDetails },
): Promise<void> {
  const tenantIds = await repo.tenantIdsOfUser(trx, entry.by.userId);
  await repo.insertActivity(trx, await rowsFor(trx, tenantIds, entry));
}

/** The `{from, to}` of every key whose value differs, or null when nothing changed. */
export function changesBetween(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, { from: unknown; to: unknown }> | null {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      changes[key] = { from: before[key] ?? null, to: after[key] ?? null };
    }
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

/** An entry in API form. */
export function presentActivity(row: repo.ActivityRow) {
  return {
    id: row.id,
    action: row.action as ActivityAction,
    actor: { userId: row.actor_user_id, email: row.actor_email, apiKeyId: row.actor_api_key_id },
    ip: row.ip,
    details: JSON.parse(row.details) as ActivityDetails,
    createdAt: row.created_at,
  };
}

/** A tenant's activity, newest first (owners and admins; a member 403, anyone else 404). */
export async function listActivity(
  deps: { db: Db },
  input: { tenantId: string; userId: string; limit: number; cursor?: string },
) {
  // The cursor is read before anything else: a bad one is 422 whoever asks.
  const before = input.cursor ? decodeCursor(input.cursor) : undefined;
  await requireMembership(deps.db.kysely, { ...input, action: 'activity.read' });
  const rows = await repo.listActivity(deps.db.kysely, {
    tenantId: input.tenantId,
    limit: input.limit + 1,
    before,
  });
  const page = rows.slice(0, input.limit);
  return {
    activity: page.map(presentActivity),
    nextCursor: rows.length > input.limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}
