import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { doubleIhdrPng, honestPng, overlongIdatPng } from './untrusted-files.js';
import {
  checkSignaturePixelsHere,
  checkSignaturePng,
} from '../../server/src/modules/signing/signature-image.js';

const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
};
const MAGIC = Buffer.from('89504e470d0a1a0a', 'hex');

describe('drawn signature PNG checks', () => {
  it('walks every chunk: one IHDR, first, and a complete file', () => {
    expect(checkSignaturePng(doubleIhdrPng(1024))).toBe(
      'must have one header (IHDR); this one has 2',
    );
    const png = honestPng(30, 10);
    expect(checkSignaturePng(png)).toBeNull();
    expect(checkSignaturePng(png.subarray(0, png.length - 20))).toMatch(/ends early/);
    const ihdrSecond = Buffer.concat([MAGIC, chunk('tEXt', Buffer.from('a\0b')), png.subarray(8)]);
    expect(checkSignaturePng(ihdrSecond)).toBe('must be a PNG image with its header (IHDR) first');
  });

  it('inflates the image data only as far as its pixels need', () => {
    expect(checkSignaturePixelsHere(honestPng(600, 200))).toBeNull();
    expect(checkSignaturePixelsHere(overlongIdatPng(1024 * 1024))).toMatch(
      /no more image data than its pixels need/,
    );
    // Short data is a damaged image, refused too.
    const short = honestPng(600, 200);
    const ihdr = short.subarray(8, 33);
    const truncated = Buffer.concat([
      MAGIC,
      ihdr,
      chunk('IDAT', deflateSync(Buffer.alloc(100))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(checkSignaturePixelsHere(truncated)).toMatch(/image data its pixels need/);
  });

  it('knows what an interlaced image holds', () => {
    const width = 13;
    const height = 7;
    // Adam7 passes of a 13 x 7 RGBA image: each row a filter byte and 4 bytes a pixel.
    const passes = [
      [2, 1],
      [2, 1],
      [4, 1],
      [3, 2],
      [7, 2],
      [6, 4],
      [13, 3],
    ];
    const bytes = passes.reduce((sum, [w, h]) => sum + h * (1 + w * 4), 0);
    const header = Buffer.alloc(13);
    header.writeUInt32BE(width, 0);
    header.writeUInt32BE(height, 4);
    header[8] = 8;
    header[9] = 6;
    header[12] = 1;
    const png = Buffer.concat([
      MAGIC,
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(bytes))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(checkSignaturePixelsHere(png)).toBeNull();
  });
});
