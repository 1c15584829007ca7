import { constants, inflateSync } from 'node:zlib';
import pako from 'pako';

// @libpdf/core decompresses every FlateDecode stream it reads with pako.inflate, whole and
// unbounded: a 255 KB object stream inflates to 250 MB, which a worker's heap limit does not
// stop (typed arrays live outside the V8 heap). The library calls it through pako's default
// export, shared with this module (see native-deflate.ts), so a worker thread that reads
// untrusted PDFs replaces it with Node's zlib under a budget per job.

const javascriptInflate = pako.inflate;
const JavascriptInflate = pako.Inflate;
let left = Infinity;
let exhausted = false;

/** Thrown when a job's streams decompress to more than its budget. */
export class InflateBudgetExceeded extends Error {}

function tooMuch(): never {
  exhausted = true;
  throw new InflateBudgetExceeded('its compressed streams decompress to more than allowed');
}

/**
 * From now on, on this thread, what the PDF library decompresses counts against `bytes`; past
 * it every decompression fails. Called by a worker at the start of each job.
 */
export function limitInflation(bytes: number): void {
  left = bytes;
  exhausted = false;
  pako.inflate = boundedInflate as typeof pako.inflate;
  pako.Inflate = BoundedInflate as unknown as typeof pako.Inflate;
}

/** True when the last job ran out of its decompression budget. */
export function inflationExhausted(): boolean {
  return exhausted;
}

function boundedInflate(data: pako.Data, options?: pako.InflateFunctionOptions) {
  if (exhausted) tooMuch();
  let out: Buffer;
  try {
    // A sync-flush end without a final block (PDFium's streams) is read as far as it goes.
    out = inflateSync(data as Uint8Array, {
      maxOutputLength: Math.max(1, Math.min(left, 2 ** 31 - 1)),
      finishFlush: constants.Z_SYNC_FLUSH,
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') tooMuch();
    // Damaged data: zlib stopped at the damage, before the budget, so pako's partial reading
    // (which the library falls back to) stops there too.
    const partial = javascriptInflate(data, options);
    left -= partial?.length ?? 0;
    return partial;
  }
  left -= out.length;
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

// The library's fallback for streams pako.inflate gives up on: refused once the budget is gone.
class BoundedInflate extends JavascriptInflate {
  constructor(options?: pako.InflateOptions) {
    if (exhausted) tooMuch();
    super(options);
  }
}
