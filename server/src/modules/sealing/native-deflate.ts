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

pako.deflate = ((data: pako.Data | string, options?: pako.DeflateFunctionOptions) => {
  if (options !== undefined) return javascriptDeflate(data, options);
  nativeCalls++;
  const out = deflateSync(data);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}) as typeof pako.deflate;

/** How many times streams were compressed by Node's zlib in place of pako (for the tests). */
export function nativeDeflateCalls(): number {
  return nativeCalls;
}
