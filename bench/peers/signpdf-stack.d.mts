import type { PeerSeal } from '../support/peer-stacks.js';

/** pdf-lib + @signpdf with the P12 (peer b of bench/peers.bench.ts). */
export function signpdfSeal(p12: Uint8Array, password: string, ttf: Uint8Array): PeerSeal;
