import { AppError } from '../../lib/errors.js';
import {
  checkSignaturePixels,
  checkSignaturePng,
  MAX_SIGNATURE_PIXELS,
  MAX_SIGNATURE_WIDTH,
} from './signature-image.js';
import { sniffType } from '../../lib/sniff-type.js';
import { reencodeImage } from './uploaded-image.js';

/** The largest uploaded signature image, decoded (decisions §15). */
export const MAX_UPLOADED_SIGNATURE_BYTES = 1024 * 1024;

/**
 * An uploaded signature (or initials) as the PNG that is kept: the data URL decoded, its bytes
 * a PNG or JPEG whatever the URL says, at most MAX_UPLOADED_SIGNATURE_BYTES; a PNG's chunks
 * and inflated size checked as a drawn mark's are (one IHDR, first, within 4096 x 4096 and
 * 4 megapixels; its image data inflating to no more than its pixels need, on a bounded
 * thread); then decoded and encoded again as a PNG without metadata. 422 at
 * `body.<name>.image` for any refusal.
 */
export async function reencodeSignature(
  dataUrl: string,
  name: 'signature' | 'initials',
): Promise<Buffer> {
  const path = `body.${name}.image`;
  const refuse = (message: string) =>
    new AppError('validation_failed', `The uploaded ${name} ${message}.`, {
      errors: [{ path, message }],
    });
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length > MAX_UPLOADED_SIGNATURE_BYTES) {
    throw refuse(`must be at most 1 MiB (this one has ${(bytes.length / 1024).toFixed(0)} KiB)`);
  }
  const type = sniffType(bytes.subarray(0, 8));
  if (type !== 'image/png' && type !== 'image/jpeg') throw refuse('must be a PNG or JPEG image');
  if (type === 'image/png') {
    const problem = checkSignaturePng(bytes) ?? (await checkSignaturePixels(bytes));
    if (problem) throw refuse(problem);
  }
  return reencodeImage(bytes, type, {
    maxPixels: MAX_SIGNATURE_PIXELS,
    maxSide: MAX_SIGNATURE_WIDTH,
    output: 'png',
    path,
    what: `uploaded ${name}`,
  });
}
