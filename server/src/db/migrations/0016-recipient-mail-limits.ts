import type { Kysely } from 'kysely';

/**
 * E-mails of one kind (member invitation, reminder, account e-mail) lately sent to one
 * address from the whole service, whichever tenant or request caused them (issue 45, part 5):
 * one row per kind and address, keyed by the address's SHA-256, holding the times of the
 * sends of the last day. In the database, so several processes keep one count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recipient_mail_limits')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('address_hash', 'text', (c) => c.notNull())
    // A JSON array of ISO timestamps, oldest first, none older than a day.
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('recipient_mail_limits_pk', ['kind', 'address_hash'])
    .execute();
  // Rows untouched for a day hold nothing that counts: the sweep finds them by this.
  await db.schema
    .createIndex('recipient_mail_limits_updated_idx')
    .on('recipient_mail_limits')
    .column('updated_at')
    .execute();
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('recipient_mail_limits').execute();
}
