import type { Selectable } from 'kysely';
import type { DbOrTrx, Engine } from '../../db/handle.js';
import type { AccountEventType, AccountEventsTable } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';

/** An account audit event row. */
export type AccountEventRow = Selectable<AccountEventsTable>;

/**
 * The user with this (lower-cased) e-mail, locked on PostgreSQL until the transaction ends, so
 * two recovery requests for one account take their turns (SQLite runs one writer at a time).
 */
export async function lockUserByEmail(db: DbOrTrx, engine: Engine, email: string) {
  const query = db.selectFrom('users').selectAll().where('email', '=', email);
  // NO KEY UPDATE: sessions and keys referencing the user take KEY SHARE locks, let through.
  return (engine === 'postgres' ? query.forNoKeyUpdate() : query).executeTakeFirst();
}

/** Stores a hashed password reset token. */
export async function insertPasswordReset(
  db: DbOrTrx,
  row: { token_hash: string; user_id: string; created_at: string; expires_at: string },
) {
  await db
    .insertInto('password_resets')
    .values({ ...row, used_at: null, revoked_at: null })
    .execute();
}

/** Revokes the user's unused reset tokens; returns how many. */
export async function revokePasswordResets(db: DbOrTrx, userId: string, now: string) {
  const result = await db
    .updateTable('password_resets')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The user id of an unused, unrevoked, unexpired reset token, or undefined. */
export async function findLivePasswordReset(db: DbOrTrx, tokenHash: string, now: string) {
  const row = await db
    .selectFrom('password_resets')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.user_id;
}

/** Marks a live reset token used and returns its user id; undefined when it was not live. */
export async function consumePasswordReset(db: DbOrTrx, tokenHash: string, now: string) {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Records an account event. */
export async function insertAccountEvent(
  db: DbOrTrx,
  row: { user_id: string; type: AccountEventType; ip: string | null; created_at: string },
) {
  await db
    .insertInto('account_events')
    .values({ id: newId(), ...row })
    .execute();
}

/** How many events of a type the user has had since `since`, and when the latest was. */
export async function recentAccountEvents(
  db: DbOrTrx,
  input: { userId: string; type: AccountEventType; since: string },
) {
  const row = await db
    .selectFrom('account_events')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('created_at').as('last_at')])
    .where('user_id', '=', input.userId)
    .where('type', '=', input.type)
    .where('created_at', '>', input.since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), lastAt: (row.last_at as string | null) ?? null };
}
