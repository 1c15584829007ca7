import type { Storage } from '../storage/storage.js';

/**
 * What the cheap structural check makes of a stored upload: a well-formed, unencrypted PDF;
 * not a PDF at all (no `%PDF-` header in the first 1 KiB); or a file with the header whose
 * structure it cannot vouch for (damaged, encrypted, linearized with its trailer up front),
 * which the lenient parser must open (pdf-open.ts).
 */
export type PdfVerdict = 'pdf' | 'not_pdf' | 'open_to_check';

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

// What people upload by mistake, named as they would name it (file-type's extensions).
const KINDS: Record<string, string> = {
  png: 'a PNG image',
  jpg: 'a JPEG image',
  gif: 'a GIF image',
  tif: 'a TIFF image',
  webp: 'a WebP image',
  heic: 'a HEIC photo',
  bmp: 'a BMP image',
  jp2: 'a JPEG 2000 image',
  zip: 'a ZIP archive',
  docx: 'a Word document (.docx)',
  xlsx: 'an Excel workbook (.xlsx)',
  pptx: 'a PowerPoint presentation (.pptx)',
  odt: 'an OpenDocument text (.odt)',
  cfb: 'an older Microsoft Office document (.doc, .xls or .ppt)',
  rtf: 'an RTF document',
  ps: 'a PostScript file',
  eps: 'an EPS file',
  xml: 'an XML document',
};

/**
 * What a file without a `%PDF-` header is, in words for the 415's detail ("a PNG image", "an
 * HTML page", "an empty file"), from its first bytes; null when it has the header (a PDF,
 * perhaps damaged).
 */
export async function describeNotPdf(head: Uint8Array, size: number): Promise<string | null> {
  if (size === 0) return 'an empty file';
  const start = Buffer.from(head.subarray(0, 1024));
  if (/%PDF-\d\.\d/.test(start.toString('latin1'))) return null;
  // Loaded on first use: only a refused upload needs it.
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(start).catch(() => undefined);
  if (type) return KINDS[type.ext] ?? `a ${type.ext.toUpperCase()} file (${type.mime})`;
  const text = start
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^<(!doctype html|html|head|body)\b/i.test(text)) return 'an HTML page';
  if (/^<\?xml\b/i.test(text)) return KINDS.xml;
  if (/^[{[]/.test(text) && !start.includes(0)) return 'JSON or other text';
  if (!start.includes(0) && !text.includes('\uFFFD')) return 'plain text';
  return 'data of an unknown kind (no %PDF- header in its first 1 KiB)';
}

/**
 * A structural check of a stored PDF without loading it: the header, the end-of-file marker,
 * a `startxref` that points at a cross-reference table or stream inside the file, and a last
 * trailer (or cross-reference stream dictionary) that names the catalog and no `/Encrypt`. It
 * vouches for what nearly every upload is at a cost independent of file size; anything else
 * with a PDF header is left to the lenient parser.
 */
export async function inspectPdf(
  storage: Storage,
  key: string,
  size: number,
  ends?: UploadEnds,
): Promise<PdfVerdict> {
  const read = (start: number, end: number) => {
    const kept = ends && fromEnds(ends, size, start, end);
    return kept ? Promise.resolve(kept) : storage.readRange(key, start, end);
  };
  if (size === 0) return 'not_pdf';
  const head = await read(0, 1023);
  if (!/%PDF-\d\.\d/.test(head.toString('latin1'))) return 'not_pdf';
  return (await wellFormed(read, size)) ? 'pdf' : 'open_to_check';
}

async function wellFormed(
  read: (start: number, end: number) => Promise<Buffer>,
  size: number,
): Promise<boolean> {
  if (size < 64) return false;
  const tail = (await read(Math.max(0, size - 2048), size - 1)).toString('latin1');
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) return false;
  const offset = Number(match[1]);
  if (!Number.isSafeInteger(offset) || offset <= 0 || offset >= size) return false;
  const at = (await read(offset, Math.min(size - 1, offset + 4095))).toString('latin1');
  let trailer: string;
  if (/^\s*xref\b/.test(at)) {
    if (!plausibleXrefRows(at)) return false;
    const start = tail.lastIndexOf('trailer');
    if (start < 0) return false;
    trailer = tail.slice(start);
  } else if (/^\s*\d+\s+\d+\s+obj\b/.test(at)) {
    trailer = at.split(/\bstream\b/)[0];
  } else {
    return false;
  }
  // A linearized file's last trailer holds only /Size: its catalog (and an /Encrypt) are
  // named in the first-page trailer near the start, which this check does not read.
  return /\/Root\b/.test(trailer) && !ENCRYPT.test(trailer);
}

// The first rows of a cross-reference table, as far as the 4 KiB read holds them: a subsection
// header, then entries of a 10-digit offset, a 5-digit generation and `n` or `f`. Garbage rows
// would make the parser rebuild the table by scanning every object, which a hostile file makes
// quadratic (3,000 unterminated objects in 56 KB: seconds): such a file goes to the lenient
// parser's thread instead, which refuses what it cannot open.
function plausibleXrefRows(at: string): boolean {
  const lines = at
    .replace(/^\s*xref\s*/, '')
    .split(/\r\n|\r|\n/)
    .slice(0, -1); // the last line may be cut by the read
  const header = /^\s*(\d+)\s+(\d+)\s*$/.exec(lines[0] ?? '');
  if (!header) return false;
  const rows = lines.slice(1, 1 + Number(header[2]));
  return rows.every((row) => /^\d{10} \d{5} [nf]\s*$/.test(row));
}
