import type { Kysely } from 'kysely';

/**
 * Branding (decisions §13): a tenant's `brand_name` and `brand_color` (`#rrggbb`), and its logo
 * as re-encoded and stored (`logo_key`, the storage key whose file name is the logo's public,
 * unguessable name; `logo_width`, `logo_height` in pixels). All null until set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tenants').addColumn('brand_name', 'text').execute();
  await db.schema.alterTable('tenants').addColumn('brand_color', 'text').execute();
  await db.schema.alterTable('tenants').addColumn('logo_key', 'text').execute();
  await db.schema.alterTable('tenants').addColumn('logo_width', 'integer').execute();
  await db.schema.alterTable('tenants').addColumn('logo_height', 'integer').execute();
}

/** Drops the columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['logo_height', 'logo_width', 'logo_key', 'brand_color', 'brand_name']) {
    await db.schema.alterTable('tenants').dropColumn(column).execute();
  }
}
