import type { Db, DbOrTrx } from '../../db/handle.js';
import { AppError, validationError } from '../../lib/errors.js';
import { newId, nowIso } from '../../lib/ids.js';
import { decodeKeyPair, encodeKeyPair } from '../../lib/cursor.js';
import { requireMembership } from '../tenants/tenants.service.js';
import * as repo from './folders.repo.js';
import { MAX_FOLDER_DEPTH } from './folders.schemas.js';

/** How many folders a tenant may have. */
export const MAX_FOLDERS_PER_TENANT = 1000;

/** What the folder services need. */
export type FolderDeps = { db: Db };

/** The API form of a folder. */
export function presentFolder(f: repo.FolderRow) {
  return {
    id: f.id,
    tenantId: f.tenant_id,
    name: f.name,
    parentId: f.parent_id,
    createdAt: f.created_at,
  };
}

// The parent a folder is to go under: of the same tenant (404 otherwise), neither the folder
// itself nor inside it, and not so deep that the folder would pass MAX_FOLDER_DEPTH.
async function checkParent(
  db: DbOrTrx,
  input: { tenantId: string; parentId: string; folder?: repo.FolderRow },
) {
  const parent = await repo.requireFolder(db, {
    tenantId: input.tenantId,
    folderId: input.parentId,
  });
  const above = await repo.ancestry(db, parent);
  if (input.folder && above.includes(input.folder.id)) {
    throw validationError([
      { path: 'body.parentId', message: 'is the folder itself or a folder inside it' },
    ]);
  }
  const below = input.folder ? await subtreeHeight(db, input.folder.id) : 1;
  if (above.length + below > MAX_FOLDER_DEPTH) {
    throw validationError([
      { path: 'body.parentId', message: `folders nest at most ${MAX_FOLDER_DEPTH} deep` },
    ]);
  }
}

// How many levels a folder and the folders inside it span (1 for a folder with none).
async function subtreeHeight(db: DbOrTrx, folderId: string): Promise<number> {
  let level = [folderId];
  let height = 0;
  while (level.length > 0 && height <= MAX_FOLDER_DEPTH) {
    height += 1;
    const children = await db
      .selectFrom('folders')
      .select('id')
      .where('parent_id', 'in', level)
      .execute();
    level = children.map((c) => c.id);
  }
  return height;
}

/** Creates a folder, at the top or inside `parentId`. */
export async function createFolder(
  deps: FolderDeps,
  input: { tenantId: string; userId: string; name: string; parentId?: string | null },
) {
  return deps.db.kysely.transaction().execute(async (trx) => {
    await requireMembership(trx, { ...input, action: 'document.manage' });
    await repo.lockFolders(trx, deps.db.engine, input.tenantId);
    // Counted under the tenant's folder lock: two creations at once cannot pass the cap.
    if ((await repo.countFolders(trx, input.tenantId)) >= MAX_FOLDERS_PER_TENANT) {
      throw new AppError(
        'folder_limit_reached',
        `A tenant has at most ${MAX_FOLDERS_PER_TENANT} folders; delete one it no longer needs.`,
      );
    }
    if (input.parentId) {
      await checkParent(trx, { tenantId: input.tenantId, parentId: input.parentId });
    }
    const now = nowIso();
    const folder: repo.FolderRow = {
      id: newId(),
      tenant_id: input.tenantId,
      name: input.name,
      parent_id: input.parentId ?? null,
      created_at: now,
      updated_at: now,
    };
    await repo.insertFolder(trx, folder);
    return folder;
  });
}

/**
 * A page of a tenant's folders (the tree, flat: each names its parent), by name, after the
 * cursor: a keyset position (name, id), so a folder made or removed between two pages moves
 * nothing else from one page to the other.
 */
export async function listFolders(
  deps: FolderDeps,
  input: { tenantId: string; userId: string; limit: number; cursor?: string },
) {
  await requireMembership(deps.db.kysely, { ...input, action: 'document.read' });
  const rows = await repo.listFolders(deps.db.kysely, input.tenantId);
  const after = input.cursor ? decodeFolderCursor(input.cursor) : null;
  const start = after ? rows.findIndex((f) => repo.compareFolders(f, after) > 0) : 0;
  const rest = start === -1 ? [] : rows.slice(start);
  const page = rest.slice(0, input.limit);
  const last = page.at(-1);
  return {
    folders: page,
    nextCursor: rest.length > input.limit && last ? encodeFolderCursor(last) : null,
  };
}

// The opaque cursor after a folder: its name and id, as documents' cursors hold a time and id.
const encodeFolderCursor = (folder: { name: string; id: string }) =>
  encodeKeyPair(folder.name, folder.id);

function decodeFolderCursor(cursor: string): { name: string; id: string } {
  const [name, id] = decodeKeyPair(cursor);
  return { name, id };
}

/** A folder of a tenant the caller belongs to. */
export async function getFolder(
  deps: FolderDeps,
  input: { tenantId: string; folderId: string; userId: string },
) {
  await requireMembership(deps.db.kysely, { ...input, action: 'document.read' });
  return repo.requireFolder(deps.db.kysely, input);
}

/** Renames and/or moves a folder (never into itself or a folder inside it). */
export async function updateFolder(
  deps: FolderDeps,
  input: {
    tenantId: string;
    folderId: string;
    userId: string;
    patch: { name?: string; parentId?: string | null };
  },
) {
  return deps.db.kysely.transaction().execute(async (trx) => {
    await requireMembership(trx, { ...input, action: 'document.manage' });
    await repo.lockFolders(trx, deps.db.engine, input.tenantId);
    const folder = await repo.requireFolder(trx, input);
    const { name, parentId } = input.patch;
    if (parentId) await checkParent(trx, { tenantId: input.tenantId, parentId, folder });
    const set: Partial<repo.FolderRow> = {};
    if (name !== undefined && name !== folder.name) set.name = name;
    if (parentId !== undefined && parentId !== folder.parent_id) set.parent_id = parentId;
    if (Object.keys(set).length === 0) return folder;
    const changed = { ...folder, ...set, updated_at: nowIso() };
    await repo.updateFolder(trx, folder.id, { ...set, updated_at: changed.updated_at });
    return changed;
  });
}

/** Deletes an empty folder (409 `folder_not_empty` while it holds documents or folders). */
export async function deleteFolder(
  deps: FolderDeps,
  input: { tenantId: string; folderId: string; userId: string },
) {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await requireMembership(trx, { ...input, action: 'document.manage' });
    await repo.lockFolders(trx, deps.db.engine, input.tenantId);
    const folder = await repo.requireFolder(trx, input);
    if (await repo.folderHasContents(trx, folder.id)) {
      throw new AppError(
        'folder_not_empty',
        'The folder still holds documents or folders; move or delete them first.',
      );
    }
    await repo.deleteFolder(trx, folder.id);
  });
}
