/**
 * The storage key of one of a document's files: `documents/<shard>/<document id>.<name>`, the
 * shard being the id's last two hex digits (random bits, so 256 folders filled evenly).
 *
 * Not a folder per document, as keys made before 2026-11-23 are (`documents/<id>/<name>`; they
 * stay valid, since a row stores its keys): on local disk a folder is an inode of its own, and
 * creating it cost as much CPU as creating the file, per upload. The shard folders are made once.
 */
export function documentFileKey(documentId: string, name: string): string {
  return `documents/${documentId.slice(-2)}/${documentId}.${name}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHARD = /^[0-9a-f]{2}$/i;

/** The document a key belongs to, in either layout; null for a key we did not make. */
export function documentIdOfKey(key: string): string | null {
  const [root, folder, file] = key.split('/');
  if (root !== 'documents' || folder === undefined) return null;
  if (UUID.test(folder)) return folder;
  const id = file?.slice(0, 36) ?? '';
  return SHARD.test(folder) && UUID.test(id) && file[36] === '.' ? id : null;
}

/**
 * The storage key of a template's PDF (decisions §11): `templates/<shard>/<template id>.pdf`.
 * Documents made from the template store this same key: the file is shared, never copied.
 */
export function templateFileKey(templateId: string): string {
  return `templates/${templateId.slice(-2)}/${templateId}.pdf`;
}

/** The template a key belongs to; null for a key that is not a template's file. */
export function templateIdOfKey(key: string): string | null {
  const [root, folder, file] = key.split('/');
  if (root !== 'templates' || !SHARD.test(folder ?? '')) return null;
  const id = file?.slice(0, 36) ?? '';
  return UUID.test(id) && file === `${id}.pdf` ? id : null;
}
