import { inflateSync } from 'node:zlib';
import { createBoundedWorker } from '../../lib/bounded-worker.js';
import { AppError } from '../../lib/errors.js';

/** The largest drawn signature accepted: a signature pad's canvas at 3x density fits easily. */
export const MAX_SIGNATURE_WIDTH = 4096;
/** See MAX_SIGNATURE_WIDTH. */
export const MAX_SIGNATURE_HEIGHT = 4096;
/** Pixels at most (16 MiB once decoded to RGBA), whatever the shape. */
export const MAX_SIGNATURE_PIXELS = 4_000_000;

const PNG_MAGIC = Buffer.from('89504e470d0a1a0a', 'hex');
// Samples per pixel of each PNG colour type, and the bit depths it allows.
const COLOUR_TYPES: Record<number, { samples: number; depths: number[] }> = {
  0: { samples: 1, depths: [1, 2, 4, 8, 16] },
  2: { samples: 3, depths: [8, 16] },
  3: { samples: 1, depths: [1, 2, 4, 8] },
  4: { samples: 2, depths: [8, 16] },
  6: { samples: 4, depths: [8, 16] },
};

/** What a PNG's one header says, and how many bytes its image data must inflate to. */
export type PngHeader = { width: number; height: number; inflatedBytes: number };

/**
 * Why a drawn signature is refused, or null when its structure may be decoded: every chunk is
 * walked, not just the first, and there must be exactly one IHDR, first (a decoder uses the
 * last one it meets, so a small first IHDR proves nothing about a second), within the size
 * limits. The image data's inflated size is checked off the event loop (checkSignaturePixels).
 */
export function checkSignaturePng(image: Buffer): string | null {
  const read = readPngHeader(image);
  return 'problem' in read ? read.problem : null;
}

/** The PNG's header and the size its image data must inflate to, or why it is refused. */
function readPngHeader(image: Buffer): { header: PngHeader } | { problem: string } {
  const problem = (text: string) => ({ problem: text });
  if (!image.subarray(0, 8).equals(PNG_MAGIC)) return problem('must be a PNG image');
  if (image.length < 33 || image.toString('latin1', 12, 16) !== 'IHDR') {
    return problem('must be a PNG image with its header (IHDR) first');
  }
  let headers = 0;
  let data = 0;
  let at = 8;
  for (;;) {
    if (at + 12 > image.length) return problem('must be a complete PNG image (it ends early)');
    const length = image.readUInt32BE(at);
    const type = image.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > image.length) {
      return problem(`must be a complete PNG image (its ${type} chunk ends early)`);
    }
    if (type === 'IHDR') headers++;
    if (type === 'IDAT') data++;
    at += 12 + length;
    if (type === 'IEND') break;
  }
  if (headers !== 1) return problem(`must have one header (IHDR); this one has ${headers}`);
  if (data === 0) return problem('must have image data (IDAT)');
  if (image.readUInt32BE(8) !== 13) return problem('must have a header (IHDR) of 13 bytes');
  const width = image.readUInt32BE(16);
  const height = image.readUInt32BE(20);
  if (width === 0 || height === 0) return problem('must not be empty');
  if (width > MAX_SIGNATURE_WIDTH || height > MAX_SIGNATURE_HEIGHT) {
    return problem(
      `must be at most ${MAX_SIGNATURE_WIDTH} x ${MAX_SIGNATURE_HEIGHT} pixels (this one is ${width} x ${height})`,
    );
  }
  if (width * height > MAX_SIGNATURE_PIXELS) {
    return problem(
      `must have at most ${MAX_SIGNATURE_PIXELS} pixels (this one has ${width * height})`,
    );
  }
  const depth = image[24];
  const colour = COLOUR_TYPES[image[25]];
  const interlace = image[28];
  if (!colour?.depths.includes(depth) || image[26] !== 0 || image[27] !== 0 || interlace > 1) {
    return problem('must be a PNG image with a valid header (IHDR)');
  }
  const bits = colour.samples * depth;
  return { header: { width, height, inflatedBytes: inflatedSize(width, height, bits, interlace) } };
}

// Each row is a filter byte and its samples; an interlaced image is seven smaller ones (Adam7).
function inflatedSize(width: number, height: number, bits: number, interlace: number): number {
  const rows = (w: number, h: number) => (w > 0 && h > 0 ? h * (1 + Math.ceil((w * bits) / 8)) : 0);
  if (interlace === 0) return rows(width, height);
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ];
  return passes.reduce(
    (sum, [x, y, dx, dy]) => sum + rows(Math.ceil((width - x) / dx), Math.ceil((height - y) / dy)),
    0,
  );
}

/**
 * Why the PNG's image data is refused, or null: it must inflate to exactly what its header's
 * pixels need, never more (inflating stops one byte past that), so no decoder later inflates a
 * small file into gigabytes. On this thread: for the worker only.
 */
export function checkSignaturePixelsHere(image: Buffer): string | null {
  const read = readPngHeader(image);
  if ('problem' in read) return read.problem;
  const chunks: Buffer[] = [];
  for (let at = 8; at + 12 <= image.length;) {
    const length = image.readUInt32BE(at);
    const type = image.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') chunks.push(image.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  const expected = read.header.inflatedBytes;
  let inflated: number;
  try {
    inflated = inflateSync(Buffer.concat(chunks), { maxOutputLength: expected + 1 }).length;
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      return 'must hold no more image data than its pixels need (this one inflates to more)';
    }
    return 'must be a readable PNG image (its image data is damaged)';
  }
  if (inflated !== expected) {
    return `must hold the image data its pixels need (${expected} bytes; this one has ${inflated})`;
  }
  return null;
}

// Created on first use; unref'd, so it never keeps the process alive.
let worker:
  ReturnType<typeof createBoundedWorker<{ image: Uint8Array }, string | null>> | undefined;

/**
 * checkSignaturePixelsHere on a bounded thread (64 MB, 5 s): a drawn mark's image data is
 * inflated there, never on the event loop, and never further than its header allows.
 */
export async function checkSignaturePixels(image: Buffer): Promise<string | null> {
  worker ??= createBoundedWorker({
    script: new URL('./signature-image.worker.mjs', import.meta.url),
    heapMb: 64,
    deadlineMs: 5_000,
    failure: 'The image could not be read',
  });
  try {
    return await worker.run({ image });
  } catch (err) {
    if (err instanceof AppError) return 'must be a PNG image that can be read quickly';
    throw err;
  }
}
