import type { Selectable } from 'kysely';
import type { TenantActivityTable } from '../../db/schema.js';
import type { DbOrTrx } from '../../db/handle.js';
import type { Cursor } from '../../lib/cursor.js';

/** An activity row. */
export type ActivityRow = Selectable<TenantActivityTable>;

/** Inserts activity rows (one per tenant the change concerns). */
export async function insertActivity(db: DbOrTrx, rows: ActivityRow[]) {
  if (rows.length > 0) await db.insertInto('tenant_activity').values(rows).execute();
}

/** A tenant's activity, newest first, after a cursor. */
export function listActivity(
  db: DbOrTrx,
  input: { tenantId: string; limit: number; before?: Cursor },
) {
  let query = db.selectFrom('tenant_activity').selectAll().where('tenant_id', '=', input.tenantId);
  const before = input.before;
  if (before) {
    query = query.where((eb) =>
      eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(before.createdAt, before.id)),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(input.limit).execute();
}

/** The e-mail of the acting user, kept on the entry as it is now. */
export async function actorEmail(db: DbOrTrx, userId: string): Promise<string> {
  const row = await db
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.email ?? '';
}

/** The tenants a user is a member of (an API key acts in each of them). */
export async function tenantIdsOfUser(db: DbOrTrx, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships')
    .select('tenant_id')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.tenant_id);
}
