import type { Storage } from '../storage/storage.js';

/**
 * A structural check of a stored PDF without loading it: the header, the end-of-file marker
 * and a `startxref` that points at a cross-reference table or stream inside the file. It
 * catches non-PDFs, renamed files and truncated uploads at a cost independent of file size.
 */
export async function looksLikePdf(storage: Storage, key: string, size: number): Promise<boolean> {
  if (size < 64) return false;
  const head = await storage.readRange(key, 0, 1023);
  if (!/%PDF-\d\.\d/.test(head.toString('latin1'))) return false;
  const tail = (await storage.readRange(key, Math.max(0, size - 2048), size - 1)).toString(
    'latin1',
  );
  if (!/%%EOF\s*$/.test(tail)) return false;
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) return false;
  const offset = Number(match[1]);
  if (!Number.isSafeInteger(offset) || offset <= 0 || offset >= size) return false;
  const at = (await storage.readRange(key, offset, Math.min(size - 1, offset + 63))).toString(
    'latin1',
  );
  return /^\s*(xref\b|\d+\s+\d+\s+obj\b)/.test(at);
}
