import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Storage } from '../storage/storage.js';
import { describeNotPdf, inspectPdf } from './pdf-check.js';

const bytes = (hex: string, pad = 64) =>
  Buffer.concat([Buffer.from(hex, 'hex'), Buffer.alloc(pad)]);

describe('describeNotPdf', () => {
  it.each([
    ['an empty file', Buffer.alloc(0)],
    ['a PNG image', bytes('89504e470d0a1a0a0000000d49484452')],
    ['a JPEG image', bytes('ffd8ffe000104a46494600')],
    ['a GIF image', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')],
    ['an HTML page', Buffer.from('\n  <!DOCTYPE html><html><body>Sign here</body></html>')],
    ['an HTML page', Buffer.from('<html lang="en"><head><title>x</title></head></html>')],
    ['an XML document', Buffer.from('<?xml version="1.0"?><root/>')],
    ['plain text', Buffer.from('Dear customer,\nplease find the contract attached.\n')],
    [
      'a ZIP archive',
      Buffer.concat([
        Buffer.from('504b0304', 'hex'),
        deflateSync('x').subarray(0, 40),
        Buffer.alloc(80),
      ]),
    ],
  ])('names %s', async (expected, file) => {
    expect(await describeNotPdf(file, file.length)).toBe(expected);
  });

  it('answers null for a PDF header anywhere in the first 1 KiB, damaged or not', async () => {
    const junk = Buffer.concat([Buffer.alloc(500, 0x20), Buffer.from('%PDF-1.7\n')]);
    expect(await describeNotPdf(junk, junk.length)).toBeNull();
  });

  it('says when it cannot tell', async () => {
    const noise = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 73 + 11) % 256));
    expect(await describeNotPdf(noise, noise.length)).toMatch(/^data of an unknown kind/);
  });
});

describe('inspectPdf', () => {
  const pdf = (rows: string) => {
    const body = '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n';
    return Buffer.from(
      `${body}xref\n0 2\n${rows}trailer\n<< /Size 2 /Root 1 0 R >>\nstartxref\n${body.length}\n%%EOF\n`,
      'latin1',
    );
  };
  const inspect = (file: Buffer) =>
    inspectPdf(
      {
        readRange: async (_: string, start: number, end: number) => file.subarray(start, end + 1),
      } as unknown as Storage,
      'key',
      file.length,
    );

  it('vouches for a table of well-formed rows, and not for garbage rows', async () => {
    expect(await inspect(pdf('0000000000 65535 f \n0000000009 00000 n \n'))).toBe('pdf');
    expect(await inspect(pdf('garbage garbage xx\ngarbage garbage xx\n'))).toBe('open_to_check');
    expect(await inspect(pdf('0000000000 65535 f \n'))).toBe('open_to_check');
  });
});
