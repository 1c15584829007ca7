import type { Kysely } from 'kysely';

/**
 * Signer verification (decisions §13). Per signee: `auth` (`none`, `access_code`, `email_otp`)
 * and the access code's Argon2id hash, fixed while the document is a draft. The state of the
 * attempts on a link lives apart in `signee_auth_state` (its wrong codes, its lock, its e-mailed
 * code's HMAC and sends), so the signee rows every signing request reads stay as they were.
 * A tenant's public identity keys (JWKs) are rows of `tenant_identity_keys`; the `jti` of every
 * identity token used is kept in `identity_token_uses` until the token expires, so each is used
 * once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('signees')
    .addColumn('auth', 'text', (c) => c.notNull().defaultTo('none'))
    .execute();
  await db.schema.alterTable('signees').addColumn('access_code_hash', 'text').execute();
  await db.schema
    .createTable('signee_auth_state')
    .addColumn('signee_id', 'text', (c) =>
      c.primaryKey().references('signees.id').onDelete('cascade'),
    )
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failures_since', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('otp_hash', 'text')
    .addColumn('otp_expires_at', 'text')
    .addColumn('otp_sent_at', 'text')
    .addColumn('otp_sends', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('otp_sends_since', 'text')
    .execute();
  await db.schema
    .createTable('tenant_identity_keys')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('kid', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tenant_identity_keys_pk', ['tenant_id', 'kid'])
    .execute();
  await db.schema
    .createTable('identity_token_uses')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('jti', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('identity_token_uses_pk', ['tenant_id', 'jti'])
    .execute();
  await db.schema
    .createIndex('identity_token_uses_expiry')
    .on('identity_token_uses')
    .columns(['tenant_id', 'expires_at'])
    .execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('identity_token_uses').execute();
  await db.schema.dropTable('tenant_identity_keys').execute();
  await db.schema.dropTable('signee_auth_state').execute();
  await db.schema.alterTable('signees').dropColumn('access_code_hash').execute();
  await db.schema.alterTable('signees').dropColumn('auth').execute();
}
