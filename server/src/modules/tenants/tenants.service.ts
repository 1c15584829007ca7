import type { Db } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { assertCan, type Action, type Role } from '../../lib/policy.js';
import type { DbOrTrx } from '../../db/handle.js';
import { newId, nowIso } from '../../lib/ids.js';
import type { Language } from '../../i18n/index.js';
import {
  normalizeWebhookEvents,
  parseWebhookEvents,
  type WebhookEventName,
} from '../events/event-types.js';
import * as repo from './tenants.repo.js';
import { changesBetween, recordActivity, type ActivityBy } from './activity.js';
import { DEFAULT_REMINDER_MAX } from '../documents/reminder-policy.js';
import { decodeEmbedOrigins, encodeEmbedOrigins } from './embed-origins.js';
import {
  brandSettingsColumns,
  NO_BRAND,
  presentBrandSettings,
  type BrandSettings,
} from './branding.js';

/** What tenant services need. */
export type TenantDeps = { db: Db; env: 'sandbox' | 'production' };

/** Credits a new tenant starts with: generous in the sandbox, none in production. */
export const STARTING_CREDITS = { sandbox: 1000, production: 0 } as const;

/**
 * The caller's membership when it allows `action`. Not a member: 404 (no existence leaks
 * across tenants); a member without the right: 403.
 */
export async function requireMembership(
  db: DbOrTrx,
  input: {
    tenantId: string;
    userId: string;
    action: Action;
    /** The 404's detail: a resource reached by its own id is "No such <resource>." either way. */
    notFound?: string;
  },
) {
  const membership = await repo.findMembership(db, input.tenantId, input.userId);
  assertMemberCan(membership?.role, input);
  return membership!;
}

/**
 * 404 unless `role` is a member's (a non-member learns nothing of the tenant), 403 unless it
 * allows the action: requireMembership's rule, for a role read along with the resource.
 */
export function assertMemberCan(
  role: Role | null | undefined,
  input: { action: Action; notFound?: string },
): asserts role is Role {
  if (!role) throw new AppError('not_found', input.notFound ?? 'No such tenant.');
  assertCan(role, input.action);
}

/** Creates a tenant with the caller as owner and its starting credits. */
export async function createTenant(
  deps: TenantDeps,
  input: { userId: string; name: string; by?: ActivityBy },
) {
  return deps.db.kysely.transaction().execute((trx) => insertTenant(trx, deps.env, input));
}

/**
 * Writes a new tenant in the caller's transaction: its default settings, the user as its owner,
 * its starting credits and its `tenant.created` entry. createTenant and sign-up (the account's
 * first workspace) both make tenants this way, so they start alike.
 */
export async function insertTenant(
  trx: DbOrTrx,
  env: TenantDeps['env'],
  input: { userId: string; name: string; by?: ActivityBy },
) {
  const now = nowIso();
  const tenant: repo.TenantRow = {
    id: newId(),
    name: input.name,
    email_language: 'en',
    invitation_emails: 1,
    signee_events: 0,
    webhook_events: '[]',
    reminder_cooldown_minutes: 60,
    expiry_days: null,
    reminder_first_after_days: null,
    reminder_every_days: null,
    reminder_max: DEFAULT_REMINDER_MAX,
    embed_origins: '[]',
    ...NO_BRAND,
    credit_balance: 0,
    created_at: now,
    updated_at: now,
  };
  await repo.insertTenant(trx, tenant);
  await repo.insertMembership(trx, {
    tenant_id: tenant.id,
    user_id: input.userId,
    role: 'owner',
    created_at: now,
  });
  const starting = STARTING_CREDITS[env];
  if (starting > 0) {
    await repo.changeCredits(trx, { tenantId: tenant.id, delta: starting, reason: 'starting' });
  }
  await recordActivity(trx, {
    tenantId: tenant.id,
    action: 'tenant.created',
    by: input.by ?? { userId: input.userId, apiKeyId: null, ip: null },
    details: { name: tenant.name },
  });
  return { id: tenant.id, name: tenant.name, role: 'owner' as Role, createdAt: now };
}

/** Renames a tenant (owner or admin); answers it as the caller sees it, with their role. */
export async function renameTenant(
  deps: TenantDeps,
  input: { tenantId: string; userId: string; name: string; by: ActivityBy },
) {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const membership = await requireMembership(trx, { ...input, action: 'settings.manage' });
    // Two renames at once: the second reads the first one's name, so its entry says from what.
    await repo.lockTenant(trx, deps.db.engine, input.tenantId);
    const tenant = (await repo.findTenant(trx, input.tenantId))!;
    if (tenant.name !== input.name) {
      await repo.updateTenant(trx, input.tenantId, { name: input.name, updated_at: nowIso() });
      await recordActivity(trx, {
        tenantId: input.tenantId,
        action: 'tenant.renamed',
        by: input.by,
        details: { from: tenant.name, to: input.name },
      });
    }
    return {
      id: tenant.id,
      name: input.name,
      role: membership.role,
      createdAt: tenant.created_at,
    };
  });
}

/** The tenants the user can use. */
export async function listTenants(deps: TenantDeps, userId: string) {
  const rows = await repo.listTenantsOfUser(deps.db.kysely, userId);
  return rows.map((r) => ({ id: r.id, name: r.name, role: r.role, createdAt: r.created_at }));
}

/** The caller's membership record in a tenant. */
export async function getMembership(deps: TenantDeps, input: { tenantId: string; userId: string }) {
  const m = await requireMembership(deps.db.kysely, { ...input, action: 'tenant.read' });
  return { tenantId: m.tenant_id, userId: m.user_id, role: m.role, createdAt: m.created_at };
}

function presentMember(m: {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
}) {
  return { userId: m.user_id, email: m.email, name: m.name, role: m.role, createdAt: m.created_at };
}

/** Members of a tenant (any member may see who else is in it). */
export async function listMembers(deps: TenantDeps, input: { tenantId: string; userId: string }) {
  await requireMembership(deps.db.kysely, { ...input, action: 'tenant.read' });
  return (await repo.listMembers(deps.db.kysely, input.tenantId)).map(presentMember);
}

/** Only an owner may hand out or take away ownership; admins manage admins and members. */
export function assertMayAssign(actor: Role, role: Role) {
  if (role === 'owner' && actor !== 'owner') {
    throw new AppError('forbidden', 'Only an owner can grant or change the owner role.');
  }
}

/** Changes a member's role, keeping at least one owner. */
export async function changeMemberRole(
  deps: TenantDeps,
  input: { tenantId: string; userId: string; memberId: string; role: Role; by: ActivityBy },
) {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const actor = await requireMembership(trx, { ...input, action: 'members.manage' });
    const target = await repo.findMembership(trx, input.tenantId, input.memberId);
    if (!target) throw new AppError('not_found', 'No such member.');
    assertMayAssign(actor.role, input.role);
    assertMayAssign(actor.role, target.role);
    if (target.role === 'owner' && input.role !== 'owner') {
      await repo.lockTenant(trx, deps.db.engine, input.tenantId);
      if ((await repo.countOwners(trx, input.tenantId)) <= 1) {
        throw new AppError('conflict', 'A tenant keeps at least one owner.');
      }
    }
    await repo.updateMemberRole(trx, input.tenantId, input.memberId, input.role);
    const members = await repo.listMembers(trx, input.tenantId);
    const member = presentMember(members.find((m) => m.user_id === input.memberId)!);
    if (target.role !== input.role) {
      await recordActivity(trx, {
        tenantId: input.tenantId,
        action: 'member.role_changed',
        by: input.by,
        details: { userId: member.userId, email: member.email, from: target.role, to: input.role },
      });
    }
    return member;
  });
}

/**
 * Removes a member, keeping at least one owner. Removing oneself is leaving, which every role
 * may do: nobody is kept in a tenant against their will, except its last owner.
 */
export async function removeMember(
  deps: TenantDeps,
  input: { tenantId: string; userId: string; memberId: string; by: ActivityBy },
) {
  const leaving = input.memberId === input.userId;
  await deps.db.kysely.transaction().execute(async (trx) => {
    // Leaving needs only membership: every role may read the tenant.
    const actor = await requireMembership(trx, {
      ...input,
      action: leaving ? 'tenant.read' : 'members.manage',
    });
    const target = leaving ? actor : await repo.findMembership(trx, input.tenantId, input.memberId);
    if (!target) throw new AppError('not_found', 'No such member.');
    if (!leaving) assertMayAssign(actor.role, target.role);
    // Two owners leaving at once must not both see the other one still there.
    await repo.lockTenant(trx, deps.db.engine, input.tenantId);
    if (target.role === 'owner' && (await repo.countOwners(trx, input.tenantId)) <= 1) {
      throw new AppError(
        'conflict',
        leaving
          ? 'You are the last owner: make someone else an owner before leaving.'
          : 'A tenant keeps at least one owner.',
      );
    }
    const email = (await repo.listMembers(trx, input.tenantId)).find(
      (m) => m.user_id === input.memberId,
    )?.email;
    await repo.deleteMembership(trx, input.tenantId, input.memberId);
    await recordActivity(trx, {
      tenantId: input.tenantId,
      action: 'member.removed',
      by: input.by,
      details: { userId: input.memberId, email, role: target.role, left: leaving },
    });
  });
}

/** Tenant settings in API form. */
export type TenantSettings = {
  emailLanguage: Language;
  invitationEmails: boolean;
  signeeEvents: boolean;
  webhookEvents: WebhookEventName[];
  reminderCooldownMinutes: number;
  expiryDays: number | null;
  reminderFirstAfterDays: number | null;
  reminderEveryDays: number | null;
  reminderMax: number;
  embedOrigins: string[];
} & BrandSettings;

/** A tenant row's settings in API form. */
export function presentSettings(t: repo.TenantRow): TenantSettings {
  return {
    emailLanguage: t.email_language as TenantSettings['emailLanguage'],
    invitationEmails: t.invitation_emails === 1,
    signeeEvents: t.signee_events === 1,
    webhookEvents: parseWebhookEvents(t.webhook_events),
    reminderCooldownMinutes: t.reminder_cooldown_minutes,
    expiryDays: t.expiry_days,
    reminderFirstAfterDays: t.reminder_first_after_days,
    reminderEveryDays: t.reminder_every_days,
    reminderMax: t.reminder_max,
    embedOrigins: decodeEmbedOrigins(t.embed_origins),
    ...presentBrandSettings(t),
  };
}

/** Reads settings (any member). */
export async function getSettings(deps: TenantDeps, input: { tenantId: string; userId: string }) {
  await requireMembership(deps.db.kysely, { ...input, action: 'tenant.read' });
  const tenant = await repo.findTenant(deps.db.kysely, input.tenantId);
  if (!tenant) throw new AppError('not_found', 'No such tenant.');
  return presentSettings(tenant);
}

/** Changes settings (owner or admin). */
export async function updateSettings(
  deps: TenantDeps,
  input: { tenantId: string; userId: string; patch: Partial<TenantSettings>; by: ActivityBy },
) {
  return deps.db.kysely.transaction().execute(async (trx) => {
    await requireMembership(trx, { ...input, action: 'settings.manage' });
    const before = presentSettings((await repo.findTenant(trx, input.tenantId))!);
    const p = input.patch;
    await repo.updateTenant(trx, input.tenantId, {
      ...(p.emailLanguage !== undefined && { email_language: p.emailLanguage }),
      ...(p.invitationEmails !== undefined && { invitation_emails: p.invitationEmails ? 1 : 0 }),
      ...(p.signeeEvents !== undefined && { signee_events: p.signeeEvents ? 1 : 0 }),
      ...(p.webhookEvents !== undefined && {
        webhook_events: normalizeWebhookEvents(p.webhookEvents),
      }),
      ...(p.reminderCooldownMinutes !== undefined && {
        reminder_cooldown_minutes: p.reminderCooldownMinutes,
      }),
      ...(p.expiryDays !== undefined && { expiry_days: p.expiryDays }),
      ...(p.reminderFirstAfterDays !== undefined && {
        reminder_first_after_days: p.reminderFirstAfterDays,
      }),
      ...(p.reminderEveryDays !== undefined && { reminder_every_days: p.reminderEveryDays }),
      ...(p.reminderMax !== undefined && { reminder_max: p.reminderMax }),
      ...(p.embedOrigins !== undefined && { embed_origins: encodeEmbedOrigins(p.embedOrigins) }),
      ...brandSettingsColumns(p),
      updated_at: nowIso(),
    });
    const after = presentSettings((await repo.findTenant(trx, input.tenantId))!);
    // Only what the patch really changed; a patch that changes nothing writes no entry.
    const changes = changesBetween(before, after);
    if (changes) {
      await recordActivity(trx, {
        tenantId: input.tenantId,
        action: 'settings.updated',
        by: input.by,
        details: { changes },
      });
    }
    return after;
  });
}

/** The tenant's credit balance (any member). */
export async function getCredits(deps: TenantDeps, input: { tenantId: string; userId: string }) {
  await requireMembership(deps.db.kysely, { ...input, action: 'tenant.read' });
  const tenant = await repo.findTenant(deps.db.kysely, input.tenantId);
  return { balance: tenant!.credit_balance };
}

/** Operator grant (CLI): adds credits to a tenant; returns the new balance. */
export async function grantCredits(db: Db, input: { tenantId: string; amount: number }) {
  if (!Number.isInteger(input.amount) || input.amount <= 0) {
    throw new AppError('validation_failed', 'The amount must be a positive whole number.');
  }
  return db.kysely.transaction().execute(async (trx) => {
    const balance = await repo.changeCredits(trx, {
      tenantId: input.tenantId,
      delta: input.amount,
      reason: 'grant',
    });
    if (balance === null) throw new AppError('not_found', `No tenant ${input.tenantId}.`);
    return balance;
  });
}
