import type { Db } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret, newId, newSecret, nowIso } from '../../lib/ids.js';
import { can, type Role } from '../../lib/policy.js';
import { queueEmail } from '../mail/mail.service.js';
import { recipientLimited, takeRecipientSlot } from '../mail/recipient-limits.js';
import { renderMemberInvitation } from '../mail/templates/member-invitation.js';
import * as repo from './invitations.repo.js';
import { findMembership, findTenant, insertMembership, lockTenant } from './tenants.repo.js';
import { assertMayAssign, requireMembership } from './tenants.service.js';
import { recordActivity, type ActivityBy } from './activity.js';

/** What invitation services need. */
export type InvitationDeps = {
  db: Db;
  publicUrl: string;
  mailDailyLimitPerTenant: number;
  env: 'sandbox' | 'production';
};

/** How long an invitation link works. */
export const INVITATION_TTL_DAYS = 7;
/** Pending invitations a tenant may have at once: bounds the e-mail one tenant can cause. */
export const MAX_PENDING_INVITATIONS = 50;
/** Invitations a tenant may send one address in 24 hours, re-invitations included. */
export const MAX_INVITATIONS_PER_ADDRESS_PER_DAY = 5;

const DAY_MS = 24 * 3600_000;

/** What an invitation looks like to the tenant that made it. */
export function presentInvitation(row: repo.InvitationRow) {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    email: row.email,
    role: row.role,
    invitedBy: row.invited_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** The inviter, as authentication knows the caller. */
type Caller = {
  userId: string;
  name: string;
  email: string;
  emailVerified: boolean;
  by: ActivityBy;
};

/**
 * Invites an address to the tenant with a role and e-mails it the link. The account behind the
 * address, if any, is never looked up, so the answer (and its timing) is the same whether or
 * not one exists; only an address that already belongs to a member, whom the inviter can list
 * anyway, is 409. A re-invitation replaces the pending one: its link stops working.
 */
export async function inviteMember(
  deps: InvitationDeps,
  input: { tenantId: string; caller: Caller; email: string; role: Role },
) {
  // Checked before the tenant, so an unverified caller learns nothing about tenant ids.
  if (!input.caller.emailVerified) {
    throw new AppError(
      'email_not_verified',
      'Verify your e-mail address (see the link we sent) before inviting members.',
    );
  }
  const email = input.email.trim().toLowerCase();
  const { tenantId } = input;
  return deps.db.kysely.transaction().execute(async (trx) => {
    const actor = await requireMembership(trx, {
      tenantId,
      userId: input.caller.userId,
      action: 'members.manage',
    });
    assertMayAssign(actor.role, input.role);
    await lockTenant(trx, deps.db.engine, tenantId);
    if (await repo.findMemberByEmail(trx, tenantId, email)) {
      throw new AppError('conflict', 'This address already belongs to a member of the tenant.');
    }
    const now = nowIso();
    const since = new Date(Date.parse(now) - DAY_MS).toISOString();
    if (
      (await repo.countInvitationsTo(trx, { tenantId, email, since })) >=
      MAX_INVITATIONS_PER_ADDRESS_PER_DAY
    ) {
      throw new AppError(
        'invitation_limit_reached',
        `This address was invited ${MAX_INVITATIONS_PER_ADDRESS_PER_DAY} times in the last 24 hours; try again later.`,
      );
    }
    if (
      (await repo.countLiveInvitations(trx, { tenantId, now, exceptEmail: email })) >=
      MAX_PENDING_INVITATIONS
    ) {
      throw new AppError(
        'invitation_limit_reached',
        `This tenant has ${MAX_PENDING_INVITATIONS} pending invitations; revoke some or wait until they are accepted or expire.`,
      );
    }
    await repo.revokePendingTo(trx, { tenantId, email, now });
    const token = newSecret('iv_');
    const row: repo.InvitationRow = {
      id: newId(),
      tenant_id: tenantId,
      email,
      role: input.role,
      token_hash: hashSecret(token),
      invited_by: input.caller.userId,
      status: 'pending',
      created_at: now,
      expires_at: new Date(Date.parse(now) + INVITATION_TTL_DAYS * DAY_MS).toISOString(),
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
    };
    await repo.insertInvitation(trx, row);
    const tenant = (await findTenant(trx, tenantId))!;
    // In production, a tenant without credits e-mails nobody but its own user: tenants cost
    // nothing to make and start with no credits, and were used to e-mail strangers. 402, as a
    // send-for-signing without credits is.
    if (
      deps.env === 'production' &&
      tenant.credit_balance <= 0 &&
      email !== input.caller.email.toLowerCase()
    ) {
      throw new AppError(
        'insufficient_credits',
        'This tenant has no signature credits: in production, a tenant without credits cannot e-mail invitations to others. Add credits first.',
      );
    }
    // Last, as the row it locks is the address's, shared with every other tenant.
    const slot = await takeRecipientSlot(trx, { kind: 'member_invitation', address: email });
    if (!slot.ok) {
      throw recipientLimited(
        'This address has been sent too many invitations to join a team lately; try again later.',
        slot.retryAfterSeconds,
      );
    }
    await queueEmail(trx, {
      to: email,
      tenant: { id: tenantId, dailyLimit: deps.mailDailyLimitPerTenant },
      ...renderMemberInvitation({
        inviterName: input.caller.name,
        tenantName: tenant.name,
        role: input.role,
        link: `${deps.publicUrl}/invitations/${token}`,
        validDays: INVITATION_TTL_DAYS,
      }),
    });
    await recordActivity(trx, {
      tenantId,
      action: 'invitation.created',
      by: input.caller.by,
      details: { invitationId: row.id, email, role: input.role },
    });
    return presentInvitation(row);
  });
}

/** The tenant's pending invitations (owner or admin). */
export async function listInvitations(
  deps: InvitationDeps,
  input: { tenantId: string; userId: string },
) {
  const db = deps.db.kysely;
  await requireMembership(db, { ...input, action: 'members.manage' });
  return (await repo.listLiveInvitations(db, input.tenantId, nowIso())).map(presentInvitation);
}

/** Revokes a pending invitation (owner or admin; an owner invitation only by an owner). */
export async function revokeInvitation(
  deps: InvitationDeps,
  input: { tenantId: string; userId: string; invitationId: string; by: ActivityBy },
) {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const actor = await requireMembership(trx, { ...input, action: 'members.manage' });
    const row = await repo.findInvitation(trx, input.tenantId, input.invitationId);
    if (!row || row.status !== 'pending') throw new AppError('not_found', 'No such invitation.');
    assertMayAssign(actor.role, row.role);
    await repo.revokeInvitation(trx, row.id, nowIso());
    await recordActivity(trx, {
      tenantId: input.tenantId,
      action: 'invitation.revoked',
      by: input.by,
      details: { invitationId: row.id, email: row.email, role: row.role },
    });
  });
}

/** An invitation's state as its link shows it. */
export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

function statusOf(row: { status: repo.InvitationRow['status']; expires_at: string }, now: string) {
  if (row.status === 'pending' && row.expires_at <= now) return 'expired';
  return row.status;
}

/** What the invitation page shows: the token is the credential, so no ids leave. */
export async function viewInvitation(deps: InvitationDeps, token: string) {
  const row = await repo.findInvitationView(deps.db.kysely, hashSecret(token));
  if (!row) throw new AppError('not_found', 'No such invitation.');
  return {
    tenantName: row.tenant_name,
    inviterName: row.inviter_name,
    email: row.email,
    role: row.role,
    status: statusOf(row, nowIso()) as InvitationStatus,
    expiresAt: row.expires_at,
  };
}

/**
 * Accepts an invitation as the logged-in user, who must own the invited address (verified,
 * any letter case). Accepting again, by the user who accepted, answers the same membership;
 * an existing membership keeps its role. The inviter must still be allowed to grant the role.
 */
export async function acceptInvitation(
  deps: InvitationDeps,
  input: { token: string; caller: Caller },
) {
  const { caller } = input;
  return deps.db.kysely.transaction().execute(async (trx) => {
    const row = await repo.lockInvitationByToken(trx, deps.db.engine, hashSecret(input.token));
    if (!row) throw new AppError('not_found', 'No such invitation.');
    const now = nowIso();
    const existing = await findMembership(trx, row.tenant_id, caller.userId);
    const status = statusOf(row, now);
    if (status === 'accepted' && row.accepted_by === caller.userId && existing) {
      return presentMembership(existing);
    }
    if (status !== 'pending') {
      throw new AppError('invitation_expired', goneDetail[status]);
    }
    if (caller.email.toLowerCase() !== row.email) {
      throw new AppError(
        'forbidden',
        'This invitation was sent to another e-mail address: log in with the account of that address to accept it.',
      );
    }
    if (!caller.emailVerified) {
      throw new AppError(
        'email_not_verified',
        'Verify your e-mail address (see the link we sent) before accepting the invitation.',
      );
    }
    // Revoking someone's rights also withdraws the invitations they made with them.
    const inviter = await findMembership(trx, row.tenant_id, row.invited_by);
    if (
      !inviter ||
      !can(inviter.role, 'members.manage') ||
      (row.role === 'owner' && inviter.role !== 'owner')
    ) {
      throw new AppError(
        'invitation_expired',
        'The person who invited you can no longer add members with this role; ask for a new invitation.',
      );
    }
    await repo.markAccepted(trx, { invitationId: row.id, userId: caller.userId, now });
    // A member already: the invitation is used up, the membership (and its role) unchanged.
    const details = { invitationId: row.id, userId: caller.userId, email: row.email };
    if (existing) {
      await recordActivity(trx, {
        tenantId: row.tenant_id,
        action: 'invitation.accepted',
        by: caller.by,
        details: { ...details, role: existing.role },
      });
      return presentMembership(existing);
    }
    const membership = {
      tenant_id: row.tenant_id,
      user_id: caller.userId,
      role: row.role,
      created_at: now,
    };
    await insertMembership(trx, membership);
    await recordActivity(trx, {
      tenantId: row.tenant_id,
      action: 'member.added',
      by: caller.by,
      details: { ...details, role: row.role },
    });
    return presentMembership(membership);
  });
}

const goneDetail: Record<Exclude<InvitationStatus, 'pending'>, string> = {
  accepted: 'This invitation has already been accepted.',
  revoked: 'This invitation was withdrawn; ask for a new one.',
  expired: 'This invitation has expired; ask for a new one.',
};

function presentMembership(m: {
  tenant_id: string;
  user_id: string;
  role: Role;
  created_at: string;
}) {
  return { tenantId: m.tenant_id, userId: m.user_id, role: m.role, createdAt: m.created_at };
}
