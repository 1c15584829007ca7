/** The packages each peer stack needs (name@version), by stack name. */
export const PEER_PACKAGES: Record<'signpdf' | 'documenso', string[]>;
/** The file `name` loads from, or null when it is not installed. */
export function resolvePeer(name: string): string | null;
/** Loads the package `name` from the project's node_modules or SIGNET_BENCH_PEERS's. */
export function requirePeer(name: string): unknown;
/** The packages of PEER_PACKAGES[stack] that are not installed (name@version). */
export function missingPeers(stack: string): string[];
