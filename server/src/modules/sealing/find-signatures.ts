/** A PDF signature located by its /ByteRange, before any cryptography. */
export type SignatureSlot = {
  /** [offset1, length1, offset2, length2] as written in the file. */
  byteRange: [number, number, number, number];
  /** The CMS bytes from /Contents, without the zero padding. */
  cms: Uint8Array;
  /** /SubFilter of the signature dictionary, if found next to the /ByteRange. */
  subFilter: string | undefined;
  /** True when the two ranges plus the /Contents gap are exactly the whole file. */
  coversWholeFile: boolean;
  /** True when the ranges lie inside the file (false for a truncated file). */
  inBounds: boolean;
  /** Where the signed bytes end: the end of the revision the signature signs. */
  end: number;
  /** True when the signed bytes end with a revision's `%%EOF`: the signature signs a whole revision. */
  endsRevision: boolean;
  /** The dictionary's /M (ISO 8601): the time its signer claims, vouched for by nothing. */
  claimedTime: string | undefined;
};

const BYTE_RANGE = Buffer.from('/ByteRange');
const SUB_FILTER = Buffer.from('/SubFilter');
const SUB_FILTER_WINDOW = 2048;

/** True when the first KiB holds a `%PDF-` header, as readers require. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return asBuffer(bytes).subarray(0, 1024).includes('%PDF-');
}

/**
 * True when the file holds a signature dictionary's /ByteRange, whatever its state: a signed
 * original is sealed by appending to it, so that its signatures, valid or not, stay as they are.
 */
export function carriesSignatures(bytes: Uint8Array): boolean {
  const buffer = asBuffer(bytes);
  for (let at = buffer.indexOf(BYTE_RANGE); at !== -1; at = buffer.indexOf(BYTE_RANGE, at + 1)) {
    const head = buffer.subarray(at, at + 160).toString('latin1');
    if (/^\/ByteRange\s*\[\s*0\s+\d+\s+\d+\s+\d+\s*\]/.test(head)) return true;
  }
  return false;
}

/** Distinct signatures examined at most: a real PDF carries a handful. */
export const MAX_SIGNATURE_SLOTS = 32;
/** The largest /Contents gap read, in hex digits (128 KiB of CMS, room for a PAdES-LTA seal). */
export const MAX_CONTENTS_HEX = 256 * 1024;

/**
 * Finds every signature by scanning raw bytes for /ByteRange, so that a tampered file
 * whose structure no longer parses is still recognised as signed (and thus "altered").
 * A candidate counts only if its gap holds exactly one hex string: a /ByteRange text
 * inside some content stream cannot pass for a signature. Bounded for hostile files: many
 * /ByteRange entries naming one gap read it once, a gap over MAX_CONTENTS_HEX is not read, and
 * at most MAX_SIGNATURE_SLOTS distinct signatures are returned, so the work is one pass over the
 * file plus at most MAX_SIGNATURE_SLOTS x MAX_CONTENTS_HEX bytes, whatever the file holds.
 */
export function findSignatureSlots(bytes: Uint8Array): SignatureSlot[] {
  const buffer = asBuffer(bytes);
  const slots: SignatureSlot[] = [];
  const seen = new Set<string>();
  for (let at = buffer.indexOf(BYTE_RANGE); at !== -1; at = buffer.indexOf(BYTE_RANGE, at + 1)) {
    if (slots.length >= MAX_SIGNATURE_SLOTS) break;
    const head = buffer.subarray(at, at + 160).toString('latin1');
    const match = /^\/ByteRange\s*\[\s*(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s*\]/.exec(
      head,
    );
    if (!match) continue;
    const byteRange = match.slice(1, 5).map(Number) as SignatureSlot['byteRange'];
    const [start1, length1, start2, length2] = byteRange;
    const gapStart = start1 + length1;
    if (start1 !== 0 || start2 <= gapStart + 1 || start2 > buffer.length) continue;
    const key = byteRange.join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    if (start2 - 1 - (gapStart + 1) > MAX_CONTENTS_HEX) continue;
    if (buffer[gapStart] !== 0x3c || buffer[start2 - 1] !== 0x3e) continue; // '<' ... '>'
    const hex = buffer.subarray(gapStart + 1, start2 - 1);
    if (hex.length % 2 !== 0 || !isHex(hex)) continue;
    const cms = trimDerPadding(Buffer.from(hex.toString('latin1'), 'hex'));
    if (!cms) continue;
    const end = start2 + length2;
    slots.push({
      byteRange,
      cms,
      subFilter: findSubFilter(buffer, at, start2),
      coversWholeFile: end === buffer.length,
      inBounds: end <= buffer.length,
      end,
      endsRevision: end <= buffer.length && endsWithEof(buffer, end),
      claimedTime: findClaimedTime(buffer, at, start2),
    });
  }
  return slots;
}

function isHex(bytes: Buffer): boolean {
  for (const b of bytes) {
    const digit = b >= 0x30 && b <= 0x39;
    const letter = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x66;
    if (!digit && !letter) return false;
  }
  return true;
}

// The placeholder is zero-padded after the DER: keep only the outer element's length.
function trimDerPadding(der: Buffer): Uint8Array | undefined {
  if (der.length < 2 || der[0] !== 0x30) return undefined;
  const first = der[1];
  let length: number;
  let header = 2;
  if (first < 0x80) length = first;
  else {
    const count = first & 0x7f;
    if (count === 0 || count > 4 || der.length < 2 + count) return undefined;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der[2 + i];
    header += count;
  }
  if (header + length > der.length) return undefined;
  return new Uint8Array(der.subarray(0, header + length));
}

// Producers order dictionary keys freely: look on both sides and take the closest.
function findSubFilter(buffer: Buffer, byteRangeAt: number, afterGap: number): string | undefined {
  const before = buffer.lastIndexOf(SUB_FILTER, byteRangeAt);
  const after = buffer.indexOf(SUB_FILTER, afterGap);
  const candidates = [
    before !== -1 && byteRangeAt - before <= SUB_FILTER_WINDOW ? before : -1,
    after !== -1 && after - afterGap <= SUB_FILTER_WINDOW ? after : -1,
  ].filter((position) => position !== -1);
  for (const position of candidates) {
    const text = buffer.subarray(position, position + 80).toString('latin1');
    const match = /^\/SubFilter\s*\/([A-Za-z0-9.#_-]+)/.exec(text);
    if (match) return match[1];
  }
  return undefined;
}

/** Where each revision of the file ends: after each `%%EOF` and its end of line. */
export function revisionEnds(bytes: Uint8Array): number[] {
  const buffer = asBuffer(bytes);
  const ends: number[] = [];
  for (let at = buffer.indexOf(EOF); at !== -1; at = buffer.indexOf(EOF, at + 1)) {
    let end = at + EOF.length;
    if (buffer[end] === 0x0d) end++;
    if (buffer[end] === 0x0a) end++;
    ends.push(end);
  }
  return ends;
}

const EOF = Buffer.from('%%EOF');

function endsWithEof(buffer: Buffer, end: number): boolean {
  const tail = buffer.subarray(Math.max(0, end - 8), end).toString('latin1');
  return /%%EOF(\r\n|\r|\n)?$/.test(tail);
}

// /M of the signature dictionary: within its own object, from `obj` before the /ByteRange to
// `endobj` after the /Contents gap, so that a neighbour's /M is never taken for it.
function findClaimedTime(
  buffer: Buffer,
  byteRangeAt: number,
  afterGap: number,
): string | undefined {
  const from = Math.max(0, byteRangeAt - SUB_FILTER_WINDOW);
  const before = buffer.subarray(from, byteRangeAt).toString('latin1');
  const objectStart = before.lastIndexOf(' obj');
  const head = objectStart === -1 ? before : before.slice(objectStart);
  const after = buffer.subarray(afterGap, afterGap + SUB_FILTER_WINDOW).toString('latin1');
  const objectEnd = after.indexOf('endobj');
  const tail = objectEnd === -1 ? after : after.slice(0, objectEnd);
  for (const text of [head, tail]) {
    const match = /\/M(?![A-Za-z0-9#])\s*\(D:([^)]{4,30})\)/.exec(text);
    if (match) return parsePdfDate(match[1]);
  }
  return undefined;
}

/** A PDF date's text after `D:` (YYYYMMDDHHmmSS, then Z or ±HH'mm) as ISO 8601; undefined if unreadable. */
export function parsePdfDate(text: string): string | undefined {
  const match =
    /^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Z+-])(?:(\d{2})'?(\d{2})?'?)?)?/.exec(
      text,
    );
  if (!match) return undefined;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00'] = match;
  const sign = match[7] === '-' ? -1 : 1;
  const offset =
    match[7] && match[7] !== 'Z' ? sign * (Number(match[8] ?? 0) * 60 + Number(match[9] ?? 0)) : 0;
  const time = Date.UTC(+year, +month - 1, +day, +hour, +minute, +second) - offset * 60_000;
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
