import type { Kysely } from 'kysely';

/** E-mails queued per tenant and UTC day, so a tenant's daily volume is bounded. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tenant_mail_counts')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('tenant_mail_counts_pk', ['tenant_id', 'day'])
    .execute();
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tenant_mail_counts').execute();
}
