import type { PeerSeal } from '../support/peer-stacks.js';

/** Documenso's pre-@libpdf/core seal as far as it runs here (peer c of bench/peers.bench.ts). */
export function documensoSeal(
  p12: Uint8Array,
  password: string,
  fonts: { noto: Uint8Array; caveat: Uint8Array },
): PeerSeal;
