import { sql, type Selectable } from 'kysely';
import type { DbOrTrx, Engine } from '../../db/handle.js';
import type { FoldersTable } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';

/** A folder row. */
export type FolderRow = Selectable<FoldersTable>;

/** A folder of the tenant, or 404 `not_found` (another tenant's folder is no different). */
export async function requireFolder(
  db: DbOrTrx,
  input: { tenantId: string; folderId: string },
): Promise<FolderRow> {
  const folder = await db
    .selectFrom('folders')
    .selectAll()
    .where('id', '=', input.folderId)
    .where('tenant_id', '=', input.tenantId)
    .executeTakeFirst();
  if (!folder) throw new AppError('not_found', 'No such folder.');
  return folder;
}

/**
 * Serialises changes to a tenant's folder tree until the transaction ends: two moves at once
 * could otherwise make a cycle, and a document could be filed into a folder being deleted.
 * SQLite runs one transaction at a time and needs no lock.
 */
export async function lockFolders(db: DbOrTrx, engine: Engine, tenantId: string) {
  if (engine !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${`folders:${tenantId}`}, 0))`.execute(
    db,
  );
}

const byName = new Intl.Collator('en', { numeric: true });

/** The listing's order of two folders (by name as people sort them, then by id). */
export function compareFolders(a: { name: string; id: string }, b: { name: string; id: string }) {
  return byName.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * A tenant's folders, by name as people sort them (case and accents after the letters, "2"
 * before "10"), sorted here so both engines, whose collations differ, give the same order.
 * At most MAX_FOLDERS_PER_TENANT (folders.service.ts) rows, so reading them all is bounded.
 */
export async function listFolders(db: DbOrTrx, tenantId: string) {
  const rows = await db
    .selectFrom('folders')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .execute();
  return rows.sort(compareFolders);
}

/** How many folders a tenant has. */
export async function countFolders(db: DbOrTrx, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('folders')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts a folder. */
export async function insertFolder(db: DbOrTrx, folder: FolderRow) {
  await db.insertInto('folders').values(folder).execute();
}

/** Updates columns of a folder. */
export async function updateFolder(db: DbOrTrx, folderId: string, set: Partial<FolderRow>) {
  await db.updateTable('folders').set(set).where('id', '=', folderId).execute();
}

/** Deletes a folder. */
export async function deleteFolder(db: DbOrTrx, folderId: string) {
  await db.deleteFrom('folders').where('id', '=', folderId).execute();
}

/** Whether a folder holds a document or another folder. */
export async function folderHasContents(db: DbOrTrx, folderId: string): Promise<boolean> {
  const [document, child] = await Promise.all([
    db.selectFrom('documents').select('id').where('folder_id', '=', folderId).limit(1).execute(),
    db.selectFrom('folders').select('id').where('parent_id', '=', folderId).limit(1).execute(),
  ]);
  return document.length > 0 || child.length > 0;
}

/** The ids of a folder and every folder above it, innermost first. */
export async function ancestry(db: DbOrTrx, folder: FolderRow): Promise<string[]> {
  const chain = [folder.id];
  let parentId = folder.parent_id;
  while (parentId !== null && !chain.includes(parentId)) {
    chain.push(parentId);
    const parent = await db
      .selectFrom('folders')
      .select('parent_id')
      .where('id', '=', parentId)
      .executeTakeFirst();
    parentId = parent?.parent_id ?? null;
  }
  return chain;
}
