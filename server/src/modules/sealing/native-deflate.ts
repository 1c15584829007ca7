import { deflateSync } from 'node:zlib';
import pako from 'pako';

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
// is sampled first (three slices at level 1, 0.2 ms); when they do not shrink by a tenth, it is
// written as stored blocks (level 0, 1 ms a MiB), which come out a little longer than the data:
// @libpdf/core then keeps the stream unfiltered, as it does whenever compressing does not help.
const SAMPLE_FROM = 64 * 1024;
const SLICE = 8 * 1024;
const SHRINKS_ENOUGH = 0.9;

function doesNotShrink(data: Uint8Array): boolean {
  if (data.length < SAMPLE_FROM) return false;
  const starts = [0, (data.length - SLICE) >> 1, data.length - SLICE];
  let sampled = 0;
  let deflated = 0;
  for (const start of starts) {
    sampled += SLICE;
    deflated += deflateSync(data.subarray(start, start + SLICE), { level: 1 }).length;
  }
  return deflated > sampled * SHRINKS_ENOUGH;
}

pako.deflate = ((data: pako.Data | string, options?: pako.DeflateFunctionOptions) => {
  if (options !== undefined) return javascriptDeflate(data, options);
  nativeCalls++;
  const stored = data instanceof Uint8Array && doesNotShrink(data);
  if (stored) storedWhole++;
  const out = deflateSync(data, stored ? { level: 0 } : {});
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}) as typeof pako.deflate;

/** How many streams were found not to shrink and written as stored blocks (for the tests). */
export function storedStreams(): number {
  return storedWhole;
}

/** How many times streams were compressed by Node's zlib in place of pako (for the tests). */
export function nativeDeflateCalls(): number {
  return nativeCalls;
}
