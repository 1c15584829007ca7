import type { Storage } from '../storage/storage.js';

/** What the cheap structural check makes of a stored upload. */
export type PdfVerdict = 'pdf' | 'not_pdf' | 'encrypted';

const ENCRYPT = /\/Encrypt\b/;

/**
 * A structural check of a stored PDF without loading it: the header, the end-of-file marker
 * and a `startxref` that points at a cross-reference table or stream inside the file. It
 * catches non-PDFs, renamed files and truncated uploads at a cost independent of file size.
 * It also reads the last trailer (or cross-reference stream dictionary): an `/Encrypt` entry
 * there means the file is encrypted, which every later revision must repeat.
 */
export async function inspectPdf(storage: Storage, key: string, size: number): Promise<PdfVerdict> {
  if (size < 64) return 'not_pdf';
  const head = await storage.readRange(key, 0, 1023);
  if (!/%PDF-\d\.\d/.test(head.toString('latin1'))) return 'not_pdf';
  const tail = (await storage.readRange(key, Math.max(0, size - 2048), size - 1)).toString(
    'latin1',
  );
  if (!/%%EOF\s*$/.test(tail)) return 'not_pdf';
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) return 'not_pdf';
  const offset = Number(match[1]);
  if (!Number.isSafeInteger(offset) || offset <= 0 || offset >= size) return 'not_pdf';
  const at = (await storage.readRange(key, offset, Math.min(size - 1, offset + 4095))).toString(
    'latin1',
  );
  if (!/^\s*(xref\b|\d+\s+\d+\s+obj\b)/.test(at)) return 'not_pdf';
  const trailer = tail.slice(tail.lastIndexOf('trailer'));
  const xrefStreamDict = /^\s*\d+\s+\d+\s+obj\b/.test(at) ? at.split(/\bstream\b/)[0] : '';
  if (tail.includes('trailer') && ENCRYPT.test(trailer)) return 'encrypted';
  return ENCRYPT.test(xrefStreamDict) ? 'encrypted' : 'pdf';
}
