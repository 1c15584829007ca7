import { sql, type Kysely } from 'kysely';

/**
 * Invitations to join a tenant: membership now needs the invitee's consent. Only the token's
 * SHA-256 is stored. Rows stay after acceptance or revocation (their status says which), so
 * an old link can say why it no longer works and re-invitations to an address can be counted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('member_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('accepted_by', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  // At most one pending invitation per address and tenant: a re-invitation replaces it.
  await db.schema
    .createIndex('member_invitations_pending_idx')
    .on('member_invitations')
    .columns(['tenant_id', 'email'])
    .unique()
    .where(sql<boolean>`status = 'pending'`)
    .execute();
  // Counts of recent invitations to one address (the per-address daily bound).
  await db.schema
    .createIndex('member_invitations_recent_idx')
    .on('member_invitations')
    .columns(['tenant_id', 'email', 'created_at'])
    .execute();
}

/** Drops the table and its indexes. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('member_invitations').execute();
}
