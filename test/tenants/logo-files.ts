// Logo uploads for the branding tests: real images made with sharp, and hostile files built
// byte by byte (a PNG bomb, a polyglot, an animated PNG) where no encoder would make them.
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One PNG chunk: length, type, data, CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG put together by hand: greyscale or RGB at `depth` bits, all-zero pixels (which deflate
 * to almost nothing), with `extra` chunks before the image data.
 */
export function handmadePng(options: {
  width: number;
  height: number;
  depth?: number;
  colour?: 0 | 2;
  extra?: Buffer[];
}): Buffer {
  const depth = options.depth ?? 8;
  const colour = options.colour ?? 2;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(options.width, 0);
  header.writeUInt32BE(options.height, 4);
  header[8] = depth;
  header[9] = colour;
  const rowBytes = 1 + Math.ceil((options.width * depth * (colour === 2 ? 3 : 1)) / 8);
  const pixels = deflateSync(Buffer.alloc(rowBytes * options.height), { level: 9 });
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', header),
    ...(options.extra ?? []),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG bomb: 20000 x 20000 pixels declared (400 megapixels) in about 50 KB. */
export function pngBomb(): Buffer {
  return handmadePng({ width: 20_000, height: 20_000, depth: 1, colour: 0 });
}

/** A PNG whose text chunk holds an HTML page: a polyglot meant for a browser sniffing it. */
export function pngWithHtml(): Buffer {
  const html = Buffer.from(
    'Comment\0<html><script>alert(document.cookie)</script></html>',
    'latin1',
  );
  return handmadePng({ width: 8, height: 8, extra: [pngChunk('tEXt', html)] });
}

/** An animated PNG: an acTL chunk (two frames) before the image data. */
export function animatedPng(): Buffer {
  const control = Buffer.alloc(8);
  control.writeUInt32BE(2, 0);
  return handmadePng({ width: 8, height: 8, extra: [pngChunk('acTL', control)] });
}

/**
 * A real logo, 1200 x 500 with transparency, carrying metadata that must not survive: a text
 * chunk and an XMP packet (a design tool's export), and an sRGB profile.
 */
export async function bigPngLogo(): Promise<Buffer> {
  // Drawn from an SVG (librsvg) so it looks like a logo in screenshots: a mark and a word.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="500">
    <rect x="20" y="70" width="360" height="360" rx="80" fill="#0f766e"/>
    <path d="M110 340 L200 140 L290 340 Z" fill="#ffffff"/>
    <text x="430" y="330" font-family="DejaVu Sans, sans-serif" font-size="210" font-weight="700" fill="#134e4a">ACME</text>
  </svg>`;
  const png = await sharp(Buffer.from(svg))
    .png()
    .withMetadata({ exif: { IFD0: { Copyright: 'Acme secret tool 1.0' } } })
    .toBuffer();
  // The text chunk goes right after IHDR (8 signature + 25 header bytes).
  const note = pngChunk('tEXt', Buffer.from('Software\0Acme secret tool 1.0', 'latin1'));
  const xmp = pngChunk(
    'iTXt',
    Buffer.from(
      'XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta xmlns:x="adobe:ns:meta/">Acme secret</x:xmpmeta>',
      'latin1',
    ),
  );
  return Buffer.concat([png.subarray(0, 33), note, xmp, png.subarray(33)]);
}

/** A real photo-like JPEG, 640 x 480, with EXIF (camera, GPS-ish comment) and a rotation tag. */
export async function jpegLogo(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: '#c2410c' } })
    .jpeg({ quality: 90 })
    .withMetadata({
      orientation: 6,
      exif: { IFD0: { Make: 'Acme Camera', Copyright: 'Acme secret tool 1.0' } },
    })
    .toBuffer();
}

/** A small logo (smaller than the box: never enlarged). */
export async function smallPngLogo(): Promise<Buffer> {
  return sharp({ create: { width: 90, height: 30, channels: 3, background: '#1e3a8a' } })
    .png()
    .toBuffer();
}

/** A GIF (refused: only PNG and JPEG are logos). */
export async function gifFile(): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 16, channels: 3, background: '#ff0000' } })
    .gif()
    .toBuffer();
}

/** An SVG with a script in it. */
export const SVG_FILE = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="30"><script>alert(1)</script><rect width="100" height="30" fill="red"/></svg>',
);

/** The chunk types of a PNG, in order. */
export function pngChunkTypes(png: Buffer): string[] {
  const types: string[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    types.push(png.toString('latin1', at + 4, at + 8));
    at += 12 + length;
  }
  return types;
}
