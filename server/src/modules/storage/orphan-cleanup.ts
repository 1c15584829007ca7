import type { Db } from '../../db/handle.js';
import { existingDocumentIds } from '../documents/documents.repo.js';
import { referencedTemplateIds } from '../templates/templates.repo.js';
import { logoKeyOwner, referencedLogoKeys } from '../tenants/logo.js';
import { documentIdOfKey, templateIdOfKey } from './keys.js';
import type { Storage } from './storage.js';

/** What one cleanup pass did. */
export type OrphanCleanupResult = {
  /** Keys under documents/, templates/ and brand/ that were looked at. */
  scanned: number;
  /** Keys removed: files no row needs any more, and stale temporary files. */
  deleted: string[];
  /** Orphans left alone because they are younger than the grace period. */
  keptYoung: number;
};

// Each prefix we store files under, how a key names its owner, and which owners still need
// their files: a document's files go with its row; a template's file stays while the template
// or any document made from it does (decisions §11: documents share it); a tenant's logo is
// its own owner, kept while the tenant shows it (a replaced one is removed at once, logo.ts).
const OWNERS = [
  { prefix: 'documents/', ownerOf: documentIdOfKey, kept: existingDocumentIds },
  { prefix: 'templates/', ownerOf: templateIdOfKey, kept: referencedTemplateIds },
  { prefix: 'brand/', ownerOf: logoKeyOwner, kept: referencedLogoKeys },
];
// Bounded IN lists: a bucket can hold millions of keys, a statement should not.
const BATCH = 500;

/**
 * Removes stored files that no row accounts for: what a process killed between storing an
 * upload and committing its row (or between deleting a row and its files) leaves behind, plus
 * local `.partial` temporaries of interrupted writes. Only files older than `graceSeconds` go:
 * an upload in flight in another process has its file before its row.
 */
export async function cleanOrphanFiles(deps: {
  db: Db;
  storage: Storage;
  graceSeconds: number;
  now?: Date;
}): Promise<OrphanCleanupResult> {
  const cutoff = (deps.now ?? new Date()).getTime() - deps.graceSeconds * 1000;
  const result: OrphanCleanupResult = { scanned: 0, deleted: [], keptYoung: 0 };
  for (const owner of OWNERS) {
    const objects = await deps.storage.list(owner.prefix);
    result.scanned += objects.length;
    const byOwner = new Map<string, Array<{ key: string; old: boolean }>>();
    for (const { key, modifiedAt } of objects) {
      const old = modifiedAt.getTime() < cutoff;
      // A temporary file is never read again whoever owns it: the write that made it either
      // renamed it into place or died.
      if (key.endsWith('.partial')) {
        if (old) {
          await deps.storage.delete(key);
          result.deleted.push(key);
        } else result.keptYoung++;
        continue;
      }
      const id = owner.ownerOf(key);
      // Keys we did not make are not ours to judge.
      if (!id) continue;
      const files = byOwner.get(id) ?? [];
      files.push({ key, old });
      byOwner.set(id, files);
    }
    const ids = [...byOwner.keys()];
    for (let i = 0; i < ids.length; i += BATCH) {
      const chunk = ids.slice(i, i + BATCH);
      const known = await owner.kept(deps.db.kysely, chunk);
      for (const id of chunk) {
        if (known.has(id)) continue;
        for (const file of byOwner.get(id) ?? []) {
          if (!file.old) {
            result.keptYoung++;
            continue;
          }
          await deps.storage.delete(file.key);
          result.deleted.push(file.key);
        }
      }
    }
  }
  return result;
}
