import { deflateSync } from 'node:zlib';
import { PdfArray, type PdfDict } from '@libpdf/core';
import pako from 'pako';
import { sniffType } from '../../lib/sniff-type.js';

// @libpdf/core compresses every stream it writes (page contents, font subsets, the audit pages)
// with pako.deflate, zlib written in JavaScript: each call sets up and zeroes its own window and
// hash tables, and a seal makes dozens of calls. Node's zlib is the C library itself and gives
// the same zlib format. It measured 15–30% of a 10-page seal, and more of one with fields on
// its pages, which adds a content stream per page (docs/benchmarks.md, issue 24). @libpdf/core
// calls the function through pako's default export, which it shares with this module: pako is
// our dependency at @libpdf/core's own version, so npm installs one copy, and it is left out of
// the bundle (bin/bundle.mjs) for the same reason.
const javascriptDeflate = pako.deflate;
let nativeCalls = 0;
let storedWhole = 0;

// A stream that is compressed already (a JPEG or PNG a signee attached, the original PDF embedded
// whole, its own streams deflated) does not shrink, and deflating it costs about 22 ms a MiB of
// the sealing thread for nothing: 0.5 s for a document's 25 MiB of attachments. A large stream
// is sampled first, three 4 KiB slices: their Shannon entropy (about 30 µs) tells a photo at
// once (7.9 bits a byte and more); below 7.5 bits, a PDF's text and binary parts mix, and
// deflating the slices at level 1 (about 0.1 ms) tells whether the whole would shrink by a
// tenth. One that would not is written as stored blocks (level 0, 1 ms a MiB), a little longer
// than the data: @libpdf/core then keeps it unfiltered, as it does whenever compressing does
// not help.
const SAMPLE_FROM = 64 * 1024;
const SLICE = 4 * 1024;
const INCOMPRESSIBLE_BITS = 7.5;
const SHRINKS_ENOUGH = 0.9;

function doesNotShrink(data: Uint8Array): boolean {
  if (data.length < SAMPLE_FROM) return false;
  // A signee's attached photo says so in its first bytes.
  const type = sniffType(data.subarray(0, 8));
  if (type === 'image/jpeg' || type === 'image/png') return true;
  const starts = [0, (data.length - SLICE) >> 1, data.length - SLICE];
  const counts = new Uint32Array(256);
  // Indexed loops: a typed array's iterator costs several times as much a byte.
  for (const start of starts) for (let i = start; i < start + SLICE; i++) counts[data[i]]++;
  const total = starts.length * SLICE;
  let bits = 0;
  for (let byte = 0; byte < 256; byte++) {
    const share = counts[byte] / total;
    if (share > 0) bits -= share * Math.log2(share);
  }
  if (bits >= INCOMPRESSIBLE_BITS) return true;
  let deflated = 0;
  for (const start of starts) {
    deflated += deflateSync(data.subarray(start, start + SLICE), { level: 1 }).length;
  }
  return deflated > total * SHRINKS_ENOUGH;
}

// Level 3 rather than zlib's default 6: a seal's streams (its pages' text, the certificate, the
// evidence, font subsets) deflate in 30% less time and come out 3–5% longer, 0.5% of a sealed
// ten-page file (60,403 → 60,731 bytes). Node's zlib writes its output in chunks of 16 KiB by
// default, allocated up front and joined at the end: a page's values (under 2 KB) paid for the
// whole chunk, a 64 KiB photo for five and their join. Each call's chunk is sized to its output.
// Stored blocks need no hash table nor window either: the smallest are asked for. 64 KiB stored
// took 36 µs so, 14 µs this way.
const FITTED = (length: number) => ({
  level: 3,
  chunkSize: Math.max(64, Math.min(length + 64, 16 * 1024)),
});
const STORED = (length: number) => ({
  level: 0,
  chunkSize: length + 1024,
  memLevel: 1,
  windowBits: 9,
});

pako.deflate = ((data: pako.Data | string, options?: pako.DeflateFunctionOptions) => {
  if (options !== undefined) return javascriptDeflate(data, options);
  nativeCalls++;
  const stored = data instanceof Uint8Array && doesNotShrink(data);
  if (stored) storedWhole++;
  const length = typeof data === 'string' ? data.length : data.byteLength;
  const out = deflateSync(data, stored ? STORED(length) : FITTED(length));
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}) as typeof pako.deflate;

/**
 * Has a stream whose data would not shrink (a signee's photo, a PDF of deflated streams) written
 * as it is: an empty list of filters (ISO 32000-1, 7.3.8.2: "zero, one or several"), which
 * @libpdf/core's writer leaves alone, where it would deflate the data only to drop the result
 * (three 64 KiB photos: 60 µs of a seal).
 */
export function keepUncompressed(stream: PdfDict, data: Uint8Array): void {
  if (!doesNotShrink(data)) return;
  storedWhole++;
  stream.set('Filter', new PdfArray([]));
}

/** How many streams were found not to shrink and kept as they are (for the tests). */
export function storedStreams(): number {
  return storedWhole;
}

/** How many times streams were compressed by Node's zlib in place of pako (for the tests). */
export function nativeDeflateCalls(): number {
  return nativeCalls;
}
