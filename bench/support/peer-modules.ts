// Where the peer stacks of bench/peers.bench.ts (issue 30) come from: bench/peers/package.json
// declares their packages at the versions they were measured with, and the benchmark installs
// them into bench/peers/node_modules itself when one is missing or at another version, so that
// `npm run bench` on a fresh checkout runs every peer (issue 52). They are not the project's
// devDependencies because of @documenso/pdf-sign: see bench/peers/documenso-pipeline.mjs.
// The stacks (bench/peers/*.mjs) require them from their own folder, which Node resolves to
// bench/peers/node_modules first and the project's node_modules after it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of the peers' package.json and node_modules. */
export const PEERS_DIR = fileURLToPath(new URL('../peers/', import.meta.url));

/** The packages each peer stack requires (their versions are bench/peers/package.json's). */
const STACK_PACKAGES: Record<string, string[]> = {
  signpdf: [
    'pdf-lib',
    '@pdf-lib/fontkit',
    '@signpdf/signpdf',
    '@signpdf/signer-p12',
    '@signpdf/placeholder-pdf-lib',
    '@signpdf/utils',
    'node-forge',
  ],
  documenso: ['@cantoo/pdf-lib', '@pdf-lib/fontkit', '@documenso/pdf-sign'],
};

const requireFromPeers = createRequire(path.join(PEERS_DIR, 'package.json'));

function declaredVersions(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(path.join(PEERS_DIR, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return manifest.dependencies;
}

/** The version of `name` that the stacks would load, or null when none would. */
function installedVersion(name: string): string | null {
  let file: string;
  try {
    file = requireFromPeers.resolve(name);
  } catch {
    return null;
  }
  // The package's own manifest: the nearest one up from its entry file that carries its name
  // (some packages keep a nameless package.json in their build folders).
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === name) return pkg.version ?? null;
  }
  return null;
}

/** The packages of a stack that are missing or at another version than declared (name@version). */
export function missingPeers(stack: string): string[] {
  const declared = declaredVersions();
  return (STACK_PACKAGES[stack] ?? [])
    .filter((name) => installedVersion(name) !== declared[name])
    .map((name) => `${name}@${declared[name]}`);
}

/**
 * Installs bench/peers/package.json's packages into bench/peers/node_modules when a stack lacks
 * one; returns why that failed, or null. No lock file: the versions are exact, and a lock written
 * here would miss @documenso/pdf-sign's other platforms as the project's would.
 */
export function installPeers(log: (line: string) => void): string | null {
  const missing = [...new Set(Object.keys(STACK_PACKAGES).flatMap(missingPeers))];
  if (!missing.length) return null;
  log(`peers: installing ${missing.join(', ')} into bench/peers/node_modules (npm install)`);
  const result = spawnSync(
    'npm',
    ['install', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund'],
    // npm's output goes to stderr: run-all's stdout is its report.
    { cwd: PEERS_DIR, stdio: ['ignore', 2, 2], timeout: 10 * 60_000 },
  );
  if (result.error) return `npm install in bench/peers failed: ${result.error.message}`;
  if (result.status !== 0) return `npm install in bench/peers exited with ${result.status}`;
  return null;
}
