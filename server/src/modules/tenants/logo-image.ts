import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { AppError } from '../../lib/errors.js';

/** The largest logo file accepted, before decoding (decisions §13). */
export const LOGO_MAX_BYTES = 512 * 1024;
/** Pixels a logo may declare at most (4096 x 4096): a larger header is refused before decoding. */
export const LOGO_MAX_INPUT_PIXELS = 4096 * 4096;
/** The box a stored logo fits in: wide and short, like a page header. Never enlarged. */
export const LOGO_BOX = { width: 400, height: 120 } as const;
/** Logos decoded at once in this process; more wait in line (LOGO_QUEUE), beyond that 503. */
export const LOGO_DECODERS = 2;
const LOGO_QUEUE = 8;
/** A decode taking longer than this is a hostile file, not a logo. */
const DECODE_SECONDS = 5;

/** A logo as stored: a fresh PNG with no metadata, within LOGO_BOX. */
export type ReencodedLogo = { png: Buffer; width: number; height: number };

const PNG_MAGIC = Buffer.from('89504e470d0a1a0a', 'hex');

// What a file starts with, for the formats people try in place of a PNG or JPEG: the 415 names it.
function sniff(bytes: Buffer): 'png' | 'jpeg' | string {
  if (bytes.subarray(0, 8).equals(PNG_MAGIC)) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const head = bytes.subarray(0, 512).toString('latin1');
  if (head.startsWith('GIF8')) return 'a GIF';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'a WebP image';
  if (/^\s*(<\?xml|<!--|<!doctype svg|<svg)/i.test(head)) return 'an SVG (XML) file';
  if (/^\s*</.test(head)) return 'markup (HTML or XML)';
  return 'not an image Signet reads';
}

// Text that a browser would take for markup: a tag, a comment or a doctype.
const MARKUP = /<\s*(?:[a-z!?/])/i;
// XMP packets (Adobe's metadata, XML by design) are what design tools write into every export.
const XMP_KEYWORD = 'XML:com.adobe.xmp';

/**
 * Why a PNG's chunk structure is refused, or null: it must end (IEND) without running short,
 * not be animated (acTL), and carry no markup in its text chunks (an HTML polyglot: harmless
 * once re-encoded, which drops every text chunk, but no logo has a reason to be one).
 */
function checkPngChunks(png: Buffer): string | null {
  for (let at = 8; ;) {
    if (at + 12 > png.length) return 'The PNG ends early (it is truncated).';
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > png.length) return `The PNG ends early (its ${type} chunk is cut).`;
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'acTL') return 'The logo must be a still image; this PNG is animated.';
    if (/^(tEXt|zTXt|iTXt)$/.test(type) && MARKUP.test(textOfChunk(type, data))) {
      return `The PNG carries markup in a text chunk (${type}); export it without metadata.`;
    }
    if (type === 'IEND') return null;
    at += 12 + length;
  }
}

// A text chunk's keyword and text; compressed text is inflated to at most 64 KiB. XMP is exempt.
function textOfChunk(type: string, data: Buffer): string {
  const nul = data.indexOf(0);
  const keyword = data.toString('latin1', 0, Math.max(nul, 0));
  if (nul < 0 || keyword === XMP_KEYWORD) return '';
  const inflate = (bytes: Buffer) => {
    try {
      return inflateSync(bytes, { maxOutputLength: 64 * 1024 }).toString('latin1');
    } catch {
      return '';
    }
  };
  if (type === 'tEXt') return `${keyword} ${data.toString('latin1', nul + 1)}`;
  if (type === 'zTXt') return `${keyword} ${inflate(data.subarray(nul + 2))}`;
  // iTXt: keyword, compression flag and method, language tag, translated keyword, then text.
  const compressed = data[nul + 1] === 1;
  const language = data.indexOf(0, nul + 3);
  const translated = language < 0 ? -1 : data.indexOf(0, language + 1);
  if (translated < 0) return keyword;
  const text = data.subarray(translated + 1);
  return `${keyword} ${compressed ? inflate(text) : text.toString('utf8')}`;
}

/**
 * A line in front of some work: `max` at once, `queue` more waiting, beyond that 503. In front
 * of the decoder, a flood of hostile uploads holds LOGO_DECODERS of libuv's threads, never the
 * whole pool (which file reads and DNS share).
 */
export function createGate(max: number, queue: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(work: () => Promise<T>): Promise<T> {
    if (active >= max) {
      if (waiting.length >= queue) {
        throw new AppError(
          'service_unavailable',
          'Too many logos are being processed; try again in a moment.',
          { headers: { 'retry-after': '2' } },
        );
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else active++;
    try {
      return await work();
    } finally {
      // A waiting caller takes this slot over; else it is freed.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

const withDecoder = createGate(LOGO_DECODERS, LOGO_QUEUE);

/**
 * Decodes an uploaded logo and encodes it again as a fresh PNG: PNG or JPEG only (the bytes
 * decide, not the Content-Type), at most LOGO_MAX_BYTES and LOGO_MAX_INPUT_PIXELS, one still
 * frame, oriented by its EXIF, fitted within LOGO_BOX without enlarging, sRGB, no metadata.
 * Decoding runs on libuv's threads (sharp), LOGO_DECODERS at a time, DECODE_SECONDS at most.
 * Refusals: 413 too large, 415 not PNG or JPEG, 422 anything unreadable or hostile.
 */
export async function reencodeLogo(bytes: Buffer): Promise<ReencodedLogo> {
  if (bytes.length > LOGO_MAX_BYTES) {
    throw new AppError(
      'payload_too_large',
      `The logo must be at most ${LOGO_MAX_BYTES / 1024} KiB; this file has ${Math.ceil(bytes.length / 1024)} KiB.`,
    );
  }
  const kind = sniff(bytes);
  if (kind !== 'png' && kind !== 'jpeg') {
    throw new AppError(
      'unsupported_media_type',
      `The logo must be a PNG or JPEG image; this file is ${kind}.`,
    );
  }
  const problem = kind === 'png' ? checkPngChunks(bytes) : null;
  if (problem) throw unreadable(problem);
  return withDecoder(async () => {
    const options = { limitInputPixels: LOGO_MAX_INPUT_PIXELS, failOn: 'warning' as const };
    let pages: number | undefined;
    try {
      ({ pages } = await sharp(bytes, options).metadata());
    } catch (err) {
      throw unreadable(describe(err));
    }
    if ((pages ?? 1) > 1) throw unreadable('The logo must be a single still image.');
    try {
      const { data, info } = await sharp(bytes, { ...options, sequentialRead: true })
        .timeout({ seconds: DECODE_SECONDS })
        .rotate()
        .resize(LOGO_BOX.width, LOGO_BOX.height, { fit: 'inside', withoutEnlargement: true })
        .toColourspace('srgb')
        .png({ compressionLevel: 9, adaptiveFiltering: true })
        .toBuffer({ resolveWithObject: true });
      return { png: data, width: info.width, height: info.height };
    } catch (err) {
      throw unreadable(describe(err));
    }
  });
}

function unreadable(detail: string) {
  return new AppError('validation_failed', detail, { errors: [{ path: 'body', message: detail }] });
}

// sharp's messages, in words for the uploader; the pixel limit is the one worth naming.
function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) {
    return `The logo declares more than ${LOGO_MAX_INPUT_PIXELS.toLocaleString('en')} pixels (4096 x 4096); make it smaller.`;
  }
  if (/timeout/i.test(message)) return 'The logo took too long to decode.';
  return `The logo cannot be read as an image (${message.replace(/\s+/g, ' ').slice(0, 120)}).`;
}
