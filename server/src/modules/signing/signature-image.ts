/** The largest drawn signature accepted: a signature pad's canvas at 3x density fits easily. */
export const MAX_SIGNATURE_WIDTH = 4096;
/** See MAX_SIGNATURE_WIDTH. */
export const MAX_SIGNATURE_HEIGHT = 4096;
/** Pixels at most (16 MiB once decoded to RGBA), whatever the shape. */
export const MAX_SIGNATURE_PIXELS = 4_000_000;

const PNG_MAGIC = Buffer.from('89504e470d0a1a0a', 'hex');

/**
 * Why a drawn signature is refused, or null when it may be stored. Reads only the PNG header
 * (the IHDR chunk, which must come first): a small file that inflates to gigabytes is refused
 * before anything decodes it.
 */
export function checkSignaturePng(image: Buffer): string | null {
  if (!image.subarray(0, 8).equals(PNG_MAGIC)) return 'must be a PNG image';
  if (image.length < 33 || image.toString('latin1', 12, 16) !== 'IHDR') {
    return 'must be a PNG image with its header (IHDR) first';
  }
  const width = image.readUInt32BE(16);
  const height = image.readUInt32BE(20);
  if (width === 0 || height === 0) return 'must not be empty';
  if (width > MAX_SIGNATURE_WIDTH || height > MAX_SIGNATURE_HEIGHT) {
    return `must be at most ${MAX_SIGNATURE_WIDTH} x ${MAX_SIGNATURE_HEIGHT} pixels (this one is ${width} x ${height})`;
  }
  if (width * height > MAX_SIGNATURE_PIXELS) {
    return `must have at most ${MAX_SIGNATURE_PIXELS} pixels (this one has ${width * height})`;
  }
  return null;
}
