import type { Selectable } from 'kysely';
import type { ApiKeysTable, UsersTable } from '../../db/schema.js';
import { preparedQuery } from '../../db/prepared.js';
import type { DbOrTrx, Engine } from '../../db/handle.js';

/** A user row. */
export type UserRow = Selectable<UsersTable>;

/** Finds a user by lower-cased e-mail. */
export function findUserByEmail(db: DbOrTrx, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Finds a user by id. */
export function findUserById(db: DbOrTrx, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts a user. */
export async function insertUser(db: DbOrTrx, user: UserRow) {
  await db.insertInto('users').values(user).execute();
}

/** Stores a hashed e-mail verification token. */
export async function insertVerification(
  db: DbOrTrx,
  row: { token_hash: string; user_id: string; expires_at: string; created_at: string },
) {
  await db
    .insertInto('email_verifications')
    .values({ ...row, used_at: null })
    .execute();
}

/** Marks an unused, unexpired token used and returns its user id, or undefined. */
export async function consumeVerification(db: DbOrTrx, tokenHash: string, now: string) {
  const row = await db
    .updateTable('email_verifications')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Marks a user's address verified (keeps the first verification time). */
export async function markEmailVerified(db: DbOrTrx, userId: string, now: string) {
  await db
    .updateTable('users')
    .set({ email_verified_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('email_verified_at', 'is', null)
    .execute();
}

/** Replaces a user's password hash. */
export async function updatePasswordHash(
  db: DbOrTrx,
  userId: string,
  passwordHash: string,
  now: string,
) {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Stores a hashed session token. */
export async function insertSession(
  db: DbOrTrx,
  row: { token_hash: string; user_id: string; created_at: string; expires_at: string },
) {
  await db.insertInto('sessions').values(row).execute();
}

const sessionUser = preparedQuery((db, p: { tokenHash: string; now: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .where('sessions.token_hash', '=', p.tokenHash)
    .where('sessions.expires_at', '>', p.now),
);
/** The user behind an unexpired session token hash. */
export async function findSessionUser(db: DbOrTrx, tokenHash: string, now: string) {
  return (await sessionUser(db, { tokenHash, now }))[0];
}

/** Deletes a session. */
export async function deleteSession(db: DbOrTrx, tokenHash: string) {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Ends every session of a user; returns how many there were. */
export async function deleteUserSessions(db: DbOrTrx, userId: string) {
  const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Inserts an API key row (hash only). */
export async function insertApiKey(db: DbOrTrx, row: Selectable<ApiKeysTable>) {
  await db.insertInto('api_keys').values(row).execute();
}

/** How many keys of a user are not revoked. */
export async function countActiveApiKeys(db: DbOrTrx, userId: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Locks a user's row until the transaction ends (PostgreSQL; SQLite runs one at a time). */
export async function lockUser(db: DbOrTrx, engine: Engine, userId: string) {
  if (engine !== 'postgres') return;
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

/** A user's keys, newest first, revoked ones excluded. */
export function listApiKeys(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
}

/** One of a user's API keys, revoked or not. */
export function findApiKey(db: DbOrTrx, userId: string, keyId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'environment'])
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Revokes one of the user's keys; true when a live key was revoked. */
export async function revokeApiKey(db: DbOrTrx, userId: string, keyId: string, now: string) {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

const apiKeyWithUser = preparedQuery((db, p: { keyHash: string }) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id as keyId',
      'api_keys.environment',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'users.id',
      'users.email',
      'users.name',
      'users.email_verified_at',
    ])
    .where('api_keys.key_hash', '=', p.keyHash),
);
/** A key by its hash, with the user that owns it: one query per authenticated request. */
export async function findApiKeyWithUser(db: DbOrTrx, keyHash: string) {
  return (await apiKeyWithUser(db, { keyHash }))[0];
}

/** Records a key's last use. */
export async function touchApiKey(db: DbOrTrx, keyId: string, now: string) {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', keyId).execute();
}
