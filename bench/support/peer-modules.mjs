// Where the peers of bench/peers.bench.ts (issue 30) load from: this project's node_modules (they
// are devDependencies, but for @documenso/pdf-sign: see documenso-pipeline.mjs), else the
// node_modules of the folder SIGNET_BENCH_PEERS names. Plain JavaScript, so that type-checking
// the project does not need them installed; every one of them is a CommonJS package.
import { createRequire } from 'node:module';
import path from 'node:path';

/** The packages each peer stack needs, at the versions it was measured with. */
export const PEER_PACKAGES = {
  signpdf: [
    'pdf-lib@1.17.1',
    '@pdf-lib/fontkit@1.1.1',
    '@signpdf/signpdf@3.3.0',
    '@signpdf/signer-p12@3.3.0',
    '@signpdf/placeholder-pdf-lib@3.3.0',
    '@signpdf/utils@3.3.0',
  ],
  documenso: ['@cantoo/pdf-lib@2.5.3', '@pdf-lib/fontkit@1.1.1', '@documenso/pdf-sign@0.1.0'],
};

function places() {
  const dir = process.env.SIGNET_BENCH_PEERS;
  return [import.meta.url, ...(dir ? [path.join(path.resolve(dir), 'package.json')] : [])];
}

/** The file `name` loads from, or null when it is installed in none of the places. */
export function resolvePeer(name) {
  for (const place of places()) {
    try {
      return createRequire(place).resolve(name);
    } catch {
      // not there: try the next place
    }
  }
  return null;
}

/** Loads the package `name` from the first place that has it. */
export function requirePeer(name) {
  const file = resolvePeer(name);
  if (!file) throw new Error(`${name} is not installed (see bench/support/peer-modules.mjs)`);
  return createRequire(import.meta.url)(file);
}

/** The packages of PEER_PACKAGES[stack] that are not installed (name@version). */
export function missingPeers(stack) {
  return (PEER_PACKAGES[stack] ?? []).filter(
    (spec) => !resolvePeer(spec.slice(0, spec.lastIndexOf('@'))),
  );
}
