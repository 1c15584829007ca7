/** What a file's first bytes say it is: the only types a signee may upload (decisions §15). */
export type SniffedType = 'application/pdf' | 'image/png' | 'image/jpeg';

const PNG_MAGIC = Buffer.from('89504e470d0a1a0a', 'hex');

/** The type of a file by its magic bytes alone (never its name or declared type), or null. */
export function sniffType(head: Uint8Array): SniffedType | null {
  const bytes = Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, 8));
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (bytes.equals(PNG_MAGIC)) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}
