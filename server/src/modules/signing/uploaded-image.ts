import sharp from 'sharp';
import { AppError } from '../../lib/errors.js';
import { createGate } from '../tenants/logo-image.js';

// Images decoded at once in this process for signees' uploads, and how many may wait: as for
// logos, a flood of hostile images holds two of libuv's threads, never the whole pool.
const withDecoder = createGate(2, 8);
const DECODE_SECONDS = 10;

/** How to re-encode an upload. */
export type ReencodeOptions = {
  /** Pixels the image may declare (its IHDR or SOF): a larger one is refused undecoded. */
  maxPixels: number;
  /** Each side at most this many pixels, else refused. */
  maxSide: number;
  /** The output: a PNG, or the same format as the input. */
  output: 'png' | 'same';
  /** Where a refusal points (`errors[].path`) and what it calls the image. */
  path: string;
  what: string;
};

/**
 * Decodes an uploaded PNG or JPEG and encodes it again (sharp, on libuv's threads, two at a
 * time, DECODE_SECONDS at most): one still frame, oriented by its EXIF, sRGB, no metadata.
 * The declared size is checked before any pixel is decoded (limitInputPixels), so a small
 * file declaring a huge image (a PNG bomb) is refused at once; 422 for anything unreadable.
 */
export async function reencodeImage(
  bytes: Buffer,
  type: 'image/png' | 'image/jpeg',
  options: ReencodeOptions,
): Promise<Buffer> {
  const refuse = (message: string) =>
    new AppError('validation_failed', `The ${options.what} ${message}.`, {
      errors: [{ path: options.path, message }],
    });
  return withDecoder(async () => {
    const input = { limitInputPixels: options.maxPixels, failOn: 'warning' as const };
    let meta: sharp.Metadata;
    try {
      meta = await sharp(bytes, input).metadata();
    } catch (err) {
      throw refuse(describe(err, options.maxPixels));
    }
    if ((meta.pages ?? 1) > 1) throw refuse('must be a single still image');
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    if (width > options.maxSide || height > options.maxSide) {
      throw refuse(
        `must be at most ${options.maxSide} x ${options.maxSide} pixels (this one is ${width} x ${height})`,
      );
    }
    if (width * height > options.maxPixels) {
      throw refuse(
        `must have at most ${options.maxPixels} pixels (this one has ${width * height})`,
      );
    }
    try {
      const image = sharp(bytes, { ...input, sequentialRead: true })
        .timeout({ seconds: DECODE_SECONDS })
        .rotate()
        .toColourspace('srgb');
      const encoded =
        options.output === 'same' && type === 'image/jpeg'
          ? image.jpeg({ quality: 90, mozjpeg: true })
          : image.png({ compressionLevel: 9, adaptiveFiltering: true });
      return await encoded.toBuffer();
    } catch (err) {
      throw refuse(describe(err, options.maxPixels));
    }
  });
}

// sharp's messages, in words for the signee; the pixel limit is the one worth naming.
function describe(err: unknown, maxPixels: number): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) {
    return `declares more than ${maxPixels} pixels; make it smaller`;
  }
  if (/timeout/i.test(message)) return 'took too long to decode';
  return `cannot be read as an image (${message.replace(/\s+/g, ' ').slice(0, 120)})`;
}
