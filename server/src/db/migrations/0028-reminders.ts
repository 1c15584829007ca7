import type { Kysely } from 'kysely';

/**
 * Automatic reminders (decisions §12): the tenant's defaults (`reminder_first_after_days`,
 * `reminder_every_days`, `reminder_max`), a document's own policy (`reminders`: JSON
 * `{firstAfterDays, everyDays, max}`, `off`, or null for the tenant's defaults, fixed at sending),
 * and per signee the number of automatic reminders sent (`auto_reminders`), the compare-and-set
 * that makes each one happen once. Each reminder is a job due at its time (`signee.remind`), so
 * nothing scans the documents to find the due ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tenants').addColumn('reminder_first_after_days', 'integer').execute();
  await db.schema.alterTable('tenants').addColumn('reminder_every_days', 'integer').execute();
  await db.schema
    .alterTable('tenants')
    .addColumn('reminder_max', 'integer', (c) => c.notNull().defaultTo(3))
    .execute();
  await db.schema.alterTable('documents').addColumn('reminders', 'text').execute();
  await db.schema
    .alterTable('signees')
    .addColumn('auto_reminders', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

/** Drops the columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('signees').dropColumn('auto_reminders').execute();
  await db.schema.alterTable('documents').dropColumn('reminders').execute();
  for (const column of ['reminder_max', 'reminder_every_days', 'reminder_first_after_days']) {
    await db.schema.alterTable('tenants').dropColumn(column).execute();
  }
}
