import type { Storage } from '../storage/storage.js';

/** What the cheap structural check makes of a stored upload. */
export type PdfVerdict = 'pdf' | 'not_pdf' | 'encrypted';

const ENCRYPT = /\/Encrypt\b/;

/** Bytes kept from an upload's start and end while it streamed to storage. */
export type UploadEnds = {
  head: Buffer;
  tail: Buffer;
  /**
   * The whole file when it is small (up to WHOLE_BYTES), joined only when asked for: nothing
   * needs to read it back.
   */
  whole: () => Buffer | null;
};

const WHOLE_BYTES = 256 * 1024;

const HEAD_BYTES = 1024;
// The cross-reference section of a PDF under a few hundred objects lies in its last 64 KiB.
const TAIL_BYTES = 64 * 1024;

/**
 * Keeps the first and last bytes of a stream as it passes: the check then reads the stored
 * file again only when the cross-reference section lies further from the end.
 */
export function createEndsKeeper() {
  let head = Buffer.alloc(0);
  let tail: Buffer[] = [];
  let tailLength = 0;
  let whole: Buffer[] | null = [];
  let wholeLength = 0;
  return {
    add(chunk: Buffer) {
      wholeLength += chunk.length;
      if (wholeLength > WHOLE_BYTES) whole = null;
      else whole?.push(chunk);
      if (head.length < HEAD_BYTES) {
        head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
      }
      tail.push(chunk);
      tailLength += chunk.length;
      while (tailLength - tail[0].length >= TAIL_BYTES) tailLength -= tail.shift()!.length;
    },
    ends(): UploadEnds {
      const all = Buffer.concat(tail, tailLength);
      tail = [all];
      return {
        head,
        tail: all.subarray(Math.max(0, all.length - TAIL_BYTES)),
        whole: () => whole && Buffer.concat(whole, wholeLength),
      };
    },
  };
}

// The bytes start..end (inclusive) when the kept ends hold all of them.
function fromEnds(ends: UploadEnds, size: number, start: number, end: number): Buffer | null {
  const last = Math.min(end, size - 1);
  if (last < ends.head.length) return ends.head.subarray(start, last + 1);
  const tailStart = size - ends.tail.length;
  if (start >= tailStart) return ends.tail.subarray(start - tailStart, last - tailStart + 1);
  return null;
}

/**
 * A structural check of a stored PDF without loading it: the header, the end-of-file marker
 * and a `startxref` that points at a cross-reference table or stream inside the file. It
 * catches non-PDFs, renamed files and truncated uploads at a cost independent of file size.
 * It also reads the last trailer (or cross-reference stream dictionary): an `/Encrypt` entry
 * there means the file is encrypted, which every later revision must repeat.
 */
export async function inspectPdf(
  storage: Storage,
  key: string,
  size: number,
  ends?: UploadEnds,
): Promise<PdfVerdict> {
  if (size < 64) return 'not_pdf';
  const read = (start: number, end: number) => {
    const kept = ends && fromEnds(ends, size, start, end);
    return kept ? Promise.resolve(kept) : storage.readRange(key, start, end);
  };
  const head = await read(0, 1023);
  if (!/%PDF-\d\.\d/.test(head.toString('latin1'))) return 'not_pdf';
  const tail = (await read(Math.max(0, size - 2048), size - 1)).toString('latin1');
  if (!/%%EOF\s*$/.test(tail)) return 'not_pdf';
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) return 'not_pdf';
  const offset = Number(match[1]);
  if (!Number.isSafeInteger(offset) || offset <= 0 || offset >= size) return 'not_pdf';
  const at = (await read(offset, Math.min(size - 1, offset + 4095))).toString('latin1');
  if (!/^\s*(xref\b|\d+\s+\d+\s+obj\b)/.test(at)) return 'not_pdf';
  const trailer = tail.slice(tail.lastIndexOf('trailer'));
  const xrefStreamDict = /^\s*\d+\s+\d+\s+obj\b/.test(at) ? at.split(/\bstream\b/)[0] : '';
  if (tail.includes('trailer') && ENCRYPT.test(trailer)) return 'encrypted';
  return ENCRYPT.test(xrefStreamDict) ? 'encrypted' : 'pdf';
}
