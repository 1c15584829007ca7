import { sql, type Kysely } from 'kysely';

/**
 * Recipient roles (decisions §12): each signee is a `signer`, an `approver` or a `cc`. Every
 * signee made before roles existed signed, so the column defaults to `signer` (a constant
 * default: PostgreSQL adds it without rewriting the table). A template's roles carry theirs in
 * its `roles` JSON, read as `signer` when absent (templates.repo.ts rolesOf).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('signees')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo(sql`'signer'`))
    .execute();
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('signees').dropColumn('role').execute();
}
