import type { Db } from '../../db/handle.js';
import { existingDocumentIds } from '../documents/documents.repo.js';
import { documentIdOfKey } from './keys.js';
import type { Storage } from './storage.js';

/** What one cleanup pass did. */
export type OrphanCleanupResult = {
  /** Keys under documents/ that were looked at. */
  scanned: number;
  /** Keys removed: files of documents that have no row, and stale temporary files. */
  deleted: string[];
  /** Orphans left alone because they are younger than the grace period. */
  keptYoung: number;
};

const PREFIX = 'documents/';
// Bounded IN lists: a bucket can hold millions of keys, a statement should not.
const BATCH = 500;

/**
 * Removes stored files that no document row accounts for: what a process killed between
 * storing an upload and committing its row (or between deleting a row and its files) leaves
 * behind, plus local `.partial` temporaries of interrupted writes. Only files older than
 * `graceSeconds` go: an upload in flight in another process has its file before its row.
 */
export async function cleanOrphanFiles(deps: {
  db: Db;
  storage: Storage;
  graceSeconds: number;
  now?: Date;
}): Promise<OrphanCleanupResult> {
  const cutoff = (deps.now ?? new Date()).getTime() - deps.graceSeconds * 1000;
  const objects = await deps.storage.list(PREFIX);
  const deleted: string[] = [];
  let keptYoung = 0;
  const byDocument = new Map<string, Array<{ key: string; old: boolean }>>();
  for (const { key, modifiedAt } of objects) {
    const old = modifiedAt.getTime() < cutoff;
    // A temporary file is never read again whoever owns its document: the write that made it
    // either renamed it into place or died.
    if (key.endsWith('.partial')) {
      if (old) {
        await deps.storage.delete(key);
        deleted.push(key);
      } else keptYoung++;
      continue;
    }
    const id = documentIdOfKey(key);
    // Keys we did not make are not ours to judge.
    if (!id) continue;
    const files = byDocument.get(id) ?? [];
    files.push({ key, old });
    byDocument.set(id, files);
  }
  const ids = [...byDocument.keys()];
  for (let i = 0; i < ids.length; i += BATCH) {
    const chunk = ids.slice(i, i + BATCH);
    const known = await existingDocumentIds(deps.db.kysely, chunk);
    for (const id of chunk) {
      if (known.has(id)) continue;
      for (const file of byDocument.get(id) ?? []) {
        if (!file.old) {
          keptYoung++;
          continue;
        }
        await deps.storage.delete(file.key);
        deleted.push(file.key);
      }
    }
  }
  return { scanned: objects.length, deleted, keptYoung };
}
