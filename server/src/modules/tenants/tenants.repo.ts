import { PostgresAdapter, sql, type Selectable } from 'kysely';
import type { MembershipsTable, TenantsTable } from '../../db/schema.js';
import { preparedQuery } from '../../db/prepared.js';
import type { DbOrTrx, Engine } from '../../db/handle.js';
import { newId, nowIso } from '../../lib/ids.js';

/** A tenant row. */
export type TenantRow = Selectable<TenantsTable>;
/** A membership row. */
export type MembershipRow = Selectable<MembershipsTable>;

/** Inserts a tenant. */
export async function insertTenant(db: DbOrTrx, row: TenantRow) {
  await db.insertInto('tenants').values(row).execute();
}

/** Inserts a membership. */
export async function insertMembership(db: DbOrTrx, row: MembershipRow) {
  await db.insertInto('memberships').values(row).execute();
}

/** The tenants a user belongs to, with the user's role, oldest first. */
export function listTenantsOfUser(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('tenants', 'tenants.id', 'memberships.tenant_id')
    .select(['tenants.id', 'tenants.name', 'tenants.created_at', 'memberships.role'])
    .where('memberships.user_id', '=', userId)
    .orderBy('tenants.created_at')
    .orderBy('tenants.id')
    .execute();
}

const membership = preparedQuery((db, p: { tenantId: string; userId: string }) =>
  db
    .selectFrom('memberships')
    .selectAll()
    .where('tenant_id', '=', p.tenantId)
    .where('user_id', '=', p.userId),
);
/** One membership, or undefined. */
export async function findMembership(db: DbOrTrx, tenantId: string, userId: string) {
  return (await membership(db, { tenantId, userId }))[0];
}

/** Members of a tenant with their names and e-mails. */
export function listMembers(db: DbOrTrx, tenantId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select([
      'memberships.user_id',
      'memberships.role',
      'memberships.created_at',
      'users.email',
      'users.name',
    ])
    .where('memberships.tenant_id', '=', tenantId)
    .orderBy('memberships.created_at')
    .execute();
}

/** Changes a member's role. */
export async function updateMemberRole(
  db: DbOrTrx,
  tenantId: string,
  userId: string,
  role: MembershipRow['role'],
) {
  await db
    .updateTable('memberships')
    .set({ role })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
}

/** Removes a member. */
export async function deleteMembership(db: DbOrTrx, tenantId: string, userId: string) {
  await db
    .deleteFrom('memberships')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Locks the tenant's row until the transaction ends, so that changes to one tenant's members
 * and invitations are made one after the other: counts (owners left, pending invitations) then
 * hold on PostgreSQL too. SQLite runs one transaction at a time and needs no lock.
 */
export async function lockTenant(db: DbOrTrx, engine: Engine, tenantId: string) {
  const query = db.selectFrom('tenants').select('id').where('id', '=', tenantId);
  // NO KEY UPDATE: rows that merely reference the tenant (a membership, a document) take a
  // KEY SHARE lock on it, which this one lets through, so they neither wait nor deadlock.
  await (engine === 'postgres' ? query.forNoKeyUpdate() : query).executeTakeFirst();
}

/** How many owners a tenant has. */
export async function countOwners(db: DbOrTrx, tenantId: string) {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A tenant by id. */
export async function findTenant(db: DbOrTrx, tenantId: string) {
  return (await tenantById(db, { tenantId }))[0];
}

/**
 * A tenant with the user's role in it (null for a non-member), in one read; undefined when
 * there is no such tenant. Prepared.
 */
export async function findTenantForMember(
  db: DbOrTrx,
  input: { tenantId: string; userId: string },
): Promise<{ tenant: TenantRow; role: MembershipRow['role'] | null } | undefined> {
  const row = (await tenantForMember(db, input))[0];
  if (!row) return undefined;
  const { member_role: role, ...tenant } = row;
  return { tenant, role };
}

const tenantForMember = preparedQuery((db, p: { tenantId: string; userId: string }) =>
  db
    .selectFrom('tenants')
    .leftJoin('memberships', (join) =>
      join
        .onRef('memberships.tenant_id', '=', 'tenants.id')
        .on('memberships.user_id', '=', p.userId),
    )
    .selectAll('tenants')
    .select('memberships.role as member_role')
    .where('tenants.id', '=', p.tenantId),
);

const tenantById = preparedQuery((db, p: { tenantId: string }) =>
  db.selectFrom('tenants').selectAll().where('id', '=', p.tenantId),
);

/** Updates tenant settings columns. */
export async function updateTenant(
  db: DbOrTrx,
  tenantId: string,
  patch: Partial<Omit<TenantRow, 'id' | 'created_at'>>,
) {
  await db.updateTable('tenants').set(patch).where('id', '=', tenantId).execute();
}

/** A change of a tenant's credits: its ledger entry's delta, reason and reference. */
export type CreditChange = {
  tenantId: string;
  delta: number;
  reason: string;
  reference?: string | null;
};

function ledgerEntry(entry: CreditChange) {
  const now = nowIso();
  const ledger = {
    id: newId(),
    tenant_id: entry.tenantId,
    delta: entry.delta,
    reason: entry.reason,
    reference: entry.reference ?? null,
    created_at: now,
  };
  return { ledger, now };
}

/**
 * PostgreSQL: the common table expressions of a credit change, `changed` (the tenant's new
 * balance; no row when a debit is not covered) and its ledger entry, for a statement that
 * selects from `changed`.
 */
export function creditChangeCtes(entry: CreditChange) {
  const { ledger, now } = ledgerEntry(entry);
  const covers = entry.delta < 0 ? sql`and credit_balance >= ${-entry.delta}` : sql``;
  return sql`changed as (
        update tenants set credit_balance = credit_balance + ${entry.delta}, updated_at = ${now}
        where id = ${entry.tenantId} ${covers}
        returning credit_balance
      ), entry as (
        insert into credit_ledger (id, tenant_id, delta, reason, reference, created_at)
        select ${ledger.id}, ${ledger.tenant_id}, ${ledger.delta}::integer, ${ledger.reason},
          ${ledger.reference}, ${ledger.created_at} from changed
      )`;
}

/**
 * Adds `delta` credits (negative to consume) and writes the ledger, atomically. Consumption
 * only succeeds when the balance covers it; returns the new balance or null when it did not.
 */
export async function changeCredits(db: DbOrTrx, entry: CreditChange): Promise<number | null> {
  // On PostgreSQL the balance and its ledger entry in one statement: the tenant's row is held
  // from this change to the commit, and every send of the tenant waits on it meanwhile.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ credit_balance: number }>`
      with ${creditChangeCtes(entry)} select credit_balance from changed`.execute(db);
    return rows[0]?.credit_balance ?? null;
  }
  const { ledger, now } = ledgerEntry(entry);
  let query = db
    .updateTable('tenants')
    .set({ credit_balance: sql`credit_balance + ${entry.delta}`, updated_at: now })
    .where('id', '=', entry.tenantId);
  if (entry.delta < 0) query = query.where('credit_balance', '>=', -entry.delta);
  const row = await query.returning('credit_balance').executeTakeFirst();
  if (!row) return null;
  await db.insertInto('credit_ledger').values(ledger).execute();
  return row.credit_balance;
}
