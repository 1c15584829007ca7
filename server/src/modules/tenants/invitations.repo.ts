import type { Selectable } from 'kysely';
import type { Engine, DbOrTrx } from '../../db/handle.js';
import type { MemberInvitationsTable } from '../../db/schema.js';

/** A member invitation row. */
export type InvitationRow = Selectable<MemberInvitationsTable>;

/** Inserts an invitation. */
export async function insertInvitation(db: DbOrTrx, row: InvitationRow) {
  await db.insertInto('member_invitations').values(row).execute();
}

/** The membership of the account with this (lower-cased) e-mail, if it is a member. */
export function findMemberByEmail(db: DbOrTrx, tenantId: string, email: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('memberships.user_id')
    .where('memberships.tenant_id', '=', tenantId)
    .where('users.email', '=', email)
    .executeTakeFirst();
}

/** Pending, unexpired invitations of a tenant, not counting those to `exceptEmail`. */
export async function countLiveInvitations(
  db: DbOrTrx,
  input: { tenantId: string; now: string; exceptEmail: string },
) {
  const row = await db
    .selectFrom('member_invitations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tenant_id', '=', input.tenantId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', input.now)
    .where('email', '!=', input.exceptEmail)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many invitations (any status) the tenant made to an address since a time. */
export async function countInvitationsTo(
  db: DbOrTrx,
  input: { tenantId: string; email: string; since: string },
) {
  const row = await db
    .selectFrom('member_invitations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tenant_id', '=', input.tenantId)
    .where('email', '=', input.email)
    .where('created_at', '>', input.since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Revokes the pending invitation to an address, if any (a re-invitation replaces it). */
export async function revokePendingTo(
  db: DbOrTrx,
  input: { tenantId: string; email: string; now: string },
) {
  await db
    .updateTable('member_invitations')
    .set({ status: 'revoked', revoked_at: input.now })
    .where('tenant_id', '=', input.tenantId)
    .where('email', '=', input.email)
    .where('status', '=', 'pending')
    .execute();
}

/** A tenant's pending, unexpired invitations, newest first. */
export function listLiveInvitations(db: DbOrTrx, tenantId: string, now: string) {
  return db
    .selectFrom('member_invitations')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** One invitation of a tenant, or undefined. */
export function findInvitation(db: DbOrTrx, tenantId: string, invitationId: string) {
  return db
    .selectFrom('member_invitations')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', invitationId)
    .executeTakeFirst();
}

/** Revokes one pending invitation; true when it was pending. */
export async function revokeInvitation(db: DbOrTrx, invitationId: string, now: string) {
  const result = await db
    .updateTable('member_invitations')
    .set({ status: 'revoked', revoked_at: now })
    .where('id', '=', invitationId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The invitation behind a token hash, its row locked until the transaction ends on
 * PostgreSQL, so two acceptances of one link are made one after the other.
 */
export function lockInvitationByToken(db: DbOrTrx, engine: Engine, tokenHash: string) {
  const query = db.selectFrom('member_invitations').selectAll().where('token_hash', '=', tokenHash);
  return (engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** The invitation behind a token hash with its tenant's and inviter's names. */
export function findInvitationView(db: DbOrTrx, tokenHash: string) {
  return db
    .selectFrom('member_invitations')
    .innerJoin('tenants', 'tenants.id', 'member_invitations.tenant_id')
    .innerJoin('users', 'users.id', 'member_invitations.invited_by')
    .select([
      'member_invitations.email',
      'member_invitations.role',
      'member_invitations.status',
      'member_invitations.expires_at',
      'tenants.name as tenant_name',
      'users.name as inviter_name',
    ])
    .where('member_invitations.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks an invitation accepted by a user. */
export async function markAccepted(
  db: DbOrTrx,
  input: { invitationId: string; userId: string; now: string },
) {
  await db
    .updateTable('member_invitations')
    .set({ status: 'accepted', accepted_at: input.now, accepted_by: input.userId })
    .where('id', '=', input.invitationId)
    .execute();
}
