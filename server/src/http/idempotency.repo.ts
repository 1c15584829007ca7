import type { Insertable } from 'kysely';
import type { DbOrTrx } from '../db/handle.js';
import type { IdempotencyKeysTable } from '../db/schema.js';

/** Where a key lives: the caller's scope and the key itself. */
export type IdempotencySlot = { scope: string; key: string };

/** Removes the slot's row if it expired before `now`. */
export async function deleteExpiredKey(db: DbOrTrx, slot: IdempotencySlot, now: string) {
  await db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', slot.scope)
    .where('key', '=', slot.key)
    .where('expires_at', '<', now)
    .execute();
}

/** Claims a key; false when a row for its slot already exists. */
export async function claimKey(
  db: DbOrTrx,
  row: Insertable<IdempotencyKeysTable> & IdempotencySlot,
): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The row of a slot, or undefined. */
export function findKey(db: DbOrTrx, slot: IdempotencySlot) {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', slot.scope)
    .where('key', '=', slot.key)
    .executeTakeFirst();
}

/** Releases a claim so that a retry runs anew. */
export async function deleteKey(db: DbOrTrx, slot: IdempotencySlot) {
  await db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', slot.scope)
    .where('key', '=', slot.key)
    .execute();
}

/** Stores the answer of a claimed key. */
export async function storeAnswer(
  db: DbOrTrx,
  slot: IdempotencySlot,
  answer: { status_code: number; response_body: string | null },
) {
  await db
    .updateTable('idempotency_keys')
    .set(answer)
    .where('scope', '=', slot.scope)
    .where('key', '=', slot.key)
    .execute();
}
