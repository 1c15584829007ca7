import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Room on PostgreSQL's pages for a delivery's updates (docs/benchmarks.md, issue 53). A webhook
 * delivery is written once and then updated after each attempt (its attempt count, dispatch
 * and completion times, status): none of those columns is indexed, so PostgreSQL can write the
 * new version beside the old one on the same page without touching the three indexes (a
 * heap-only tuple update), but only when the page has room. Filled to the brim, as inserts
 * leave them, every update went to another page and into every index: 20 µs a delivery of the
 * server's time in a batch of 64 instead of 4. Pages are now filled to 70%; pages written
 * before keep their layout until they are rewritten (VACUUM FULL), and SQLite has no such
 * setting.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table webhook_deliveries set (fillfactor = 70)`.execute(db);
}

/** Back to PostgreSQL's default (pages filled whole). */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table webhook_deliveries reset (fillfactor)`.execute(db);
}
