import type { Insertable, Selectable } from 'kysely';
import type { DbOrTrx, Engine } from '../../db/handle.js';
import type { EmailsTable } from '../../db/schema.js';
import { deferWrite, flushWrites } from '../../db/deferred-writes.js';

/** An outbox row. */
export type EmailRow = Selectable<EmailsTable>;

/** Adds outbox rows, in one statement. */
export async function insertEmails(db: DbOrTrx, rows: Array<Insertable<EmailsTable>>) {
  await deferWrite(db, db.insertInto('emails').values(rows));
}

/** An outbox row by id, or undefined. */
export function findEmail(db: DbOrTrx, emailId: string) {
  return db.selectFrom('emails').selectAll().where('id', '=', emailId).executeTakeFirst();
}

/** Outbox rows by id, in one statement (in no particular order; a missing id is left out). */
export function findEmails(db: DbOrTrx, emailIds: string[]) {
  return db.selectFrom('emails').selectAll().where('id', 'in', emailIds).execute();
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

/** The statuses of an outbox row that is done with: delivered, or refused for good. */
export const SETTLED = ['sent', 'stored', 'refused'] as const;

/**
 * Stores outbox rows' final outcomes, unless one has its own already (sent, stored or refused),
 * and returns the rows it settled; a row another delivery settled first is left out. Rows that
 * share one `set` object are settled in one statement (the dev mailbox's deliveries). On
 * PostgreSQL a concurrent settle waits for the row lock and then finds the row settled.
 */
export async function settleEmails(
  db: DbOrTrx,
  outcomes: Array<{ id: string; set: Partial<EmailRow> }>,
): Promise<EmailRow[]> {
  const bySet = new Map<Partial<EmailRow>, string[]>();
  for (const { id, set } of outcomes) bySet.set(set, [...(bySet.get(set) ?? []), id]);
  const settled: EmailRow[] = [];
  for (const [set, ids] of bySet) {
    settled.push(
      ...(await db
        .updateTable('emails')
        .set(set)
        .where('id', 'in', ids)
        .where('status', 'not in', SETTLED)
        .returningAll()
        .execute()),
    );
  }
  return settled;
}

/** The newest outbox rows (at most `limit`), optionally to one address only. */
export function listEmails(db: DbOrTrx, input: { to?: string; limit: number }) {
  let query = db.selectFrom('emails').selectAll().orderBy('created_at', 'desc');
  if (input.to) query = query.where('to_address', '=', input.to);
  return query.limit(input.limit).execute();
}

/** Counts `n` more e-mails for the tenant on `day` (UTC) and returns the day's total so far. */
export async function countTenantMail(db: DbOrTrx, tenantId: string, day: string, n: number) {
  // The row is held until the commit and every send of the tenant waits for it: the writes
  // waiting in the transaction go first (db/deferred-writes.ts).
  await flushWrites(db);
  const row = await mailCountUpsert(db, tenantId, day, n).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The statement of countTenantMail, returning the day's `count` (for a statement of more). */
export function mailCountUpsert(db: DbOrTrx, tenantId: string, day: string, n: number) {
  return db
    .insertInto('tenant_mail_counts')
    .values({ tenant_id: tenantId, day, count: n })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'day'])
        .doUpdateSet((eb) => ({ count: eb('tenant_mail_counts.count', '+', n) })),
    )
    .returning('count');
}

/**
 * The send times recorded for a kind of e-mail to an address (a JSON array), its row made if
 * missing and locked until the transaction ends: the no-op update of ON CONFLICT takes the row
 * lock on PostgreSQL and reads the latest committed value, so concurrent senders to one address
 * take turns (SQLite runs one writer at a time).
 */
export async function lockRecipientSends(
  db: DbOrTrx,
  input: { kind: string; addressHash: string; now: string },
) {
  await flushWrites(db);
  const row = await db
    .insertInto('recipient_mail_limits')
    .values({
      kind: input.kind,
      address_hash: input.addressHash,
      sent_at: '[]',
      updated_at: input.now,
    })
    .onConflict((oc) =>
      oc.columns(['kind', 'address_hash']).doUpdateSet((eb) => ({ kind: eb.ref('excluded.kind') })),
    )
    .returning('sent_at')
    .executeTakeFirstOrThrow();
  return row.sent_at;
}

/** Stores the send times of a kind of e-mail to an address (its row locked by lockRecipientSends). */
export async function saveRecipientSends(
  db: DbOrTrx,
  input: { kind: string; addressHash: string; sentAt: string; now: string },
) {
  await db
    .updateTable('recipient_mail_limits')
    .set({ sent_at: input.sentAt, updated_at: input.now })
    .where('kind', '=', input.kind)
    .where('address_hash', '=', input.addressHash)
    .execute();
}

/**
 * Deletes up to 1000 rows nothing was sent through since `before` (they no longer count). On
 * PostgreSQL rows another transaction holds are skipped, never waited for, so the sweep cannot
 * deadlock with senders; SQLite runs one writer at a time.
 */
export async function deleteStaleRecipientSends(db: DbOrTrx, engine: Engine, before: string) {
  const stale = db
    .selectFrom('recipient_mail_limits')
    .select(['kind', 'address_hash'])
    .where('updated_at', '<', before)
    .limit(1000);
  await db
    .deleteFrom('recipient_mail_limits')
    .where(({ eb, refTuple }) =>
      eb(
        refTuple('kind', 'address_hash'),
        'in',
        (engine === 'postgres' ? stale.forUpdate().skipLocked() : stale).$asTuple(
          'kind',
          'address_hash',
        ),
      ),
    )
    .execute();
}
