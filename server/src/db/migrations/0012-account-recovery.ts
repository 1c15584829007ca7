import type { Kysely } from 'kysely';

/**
 * Account recovery (issue 28, part 4): password reset tokens (only their SHA-256 is stored,
 * like e-mail verification tokens and sessions) and `account_events`, the account-level audit
 * log: e-mail verification resent, password reset requested, password reset. The events also
 * space out the recovery e-mails an address receives, so the limit holds across restarts and
 * processes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    // Set when a newer request or a completed reset replaced the token before it was used.
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('password_resets_user_idx')
    .on('password_resets')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('account_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    // The client address (TRUST_PROXY decides whether X-Forwarded-For counts), as in audit trails.
    .addColumn('ip', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // A user's recent events of one type: the e-mail spacing rule reads them on every request.
  await db.schema
    .createIndex('account_events_user_type_idx')
    .on('account_events')
    .columns(['user_id', 'type', 'created_at'])
    .execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_events').execute();
  await db.schema.dropTable('password_resets').execute();
}
