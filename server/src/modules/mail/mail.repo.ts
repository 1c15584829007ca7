import type { Insertable, Selectable } from 'kysely';
import type { DbOrTrx } from '../../db/handle.js';
import type { EmailsTable } from '../../db/schema.js';

/** An outbox row. */
export type EmailRow = Selectable<EmailsTable>;

/** Adds an outbox row. */
export async function insertEmail(db: DbOrTrx, row: Insertable<EmailsTable>) {
  await db.insertInto('emails').values(row).execute();
}

/** An outbox row by id, or undefined. */
export function findEmail(db: DbOrTrx, emailId: string) {
  return db.selectFrom('emails').selectAll().where('id', '=', emailId).executeTakeFirst();
}

/** Updates an outbox row and returns it. */
export function updateEmail(db: DbOrTrx, emailId: string, set: Partial<EmailRow>) {
  return db
    .updateTable('emails')
    .set(set)
    .where('id', '=', emailId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The newest outbox rows (at most `limit`), optionally to one address only. */
export function listEmails(db: DbOrTrx, input: { to?: string; limit: number }) {
  let query = db.selectFrom('emails').selectAll().orderBy('created_at', 'desc');
  if (input.to) query = query.where('to_address', '=', input.to);
  return query.limit(input.limit).execute();
}

/** Counts `n` more e-mails for the tenant on `day` (UTC) and returns the day's total so far. */
export async function countTenantMail(db: DbOrTrx, tenantId: string, day: string, n: number) {
  const row = await db
    .insertInto('tenant_mail_counts')
    .values({ tenant_id: tenantId, day, count: n })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'day'])
        .doUpdateSet((eb) => ({ count: eb('tenant_mail_counts.count', '+', n) })),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
