// @ts-check
// Whether dist/ holds a build of the sources beside it. `npm run build` (bin/build.mjs) writes
// dist/build.json last, with the time the build started; the build is current when no build
// input has changed since then, or when there are no sources at all (an installed tree, the
// container image). A few hundred stat calls: a few milliseconds at each start.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: the checkout, or a built tree. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The stamp of the last complete build. */
export const STAMP = path.join(ROOT, 'dist', 'build.json');
/** The compiled `signet` command: the main thread's bundle (bin/bundle.mjs). */
export const COMPILED_CLI = path.join(ROOT, 'dist', 'server', 'bundle', 'cli.js');

// What the build is made from (the web app's dependencies come with package-lock.json; the
// server imports one SDK module, /embed.js is built from another).
const INPUTS = [
  'server/src',
  'sdk/src/webhook-signature.ts',
  'sdk/src/embed.ts',
  'web/src',
  'web/build-embed-script.ts',
  'web/index.html',
  'web/sign.html',
  'web/vite.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
  'package-lock.json',
  'bin/build.mjs',
  'bin/bundle.mjs',
];

/**
 * @typedef {{ state: 'current' } | { state: 'missing' | 'stale'; hasSources: boolean; reason: string }} BuildState
 */

/**
 * Whether dist/ can run as it is, and if not, why.
 * @returns {BuildState}
 */
export function buildState() {
  const hasSources = existsSync(path.join(ROOT, 'server', 'src', 'cli.ts'));
  /** @type {number} */
  let startedAt;
  try {
    startedAt = JSON.parse(readFileSync(STAMP, 'utf8')).startedAt;
  } catch {
    return { state: 'missing', hasSources, reason: 'there is no build in dist/' };
  }
  if (!existsSync(COMPILED_CLI)) {
    return { state: 'missing', hasSources, reason: 'dist/ is incomplete' };
  }
  const changed = hasSources ? changedSince(startedAt) : null;
  if (changed) return { state: 'stale', hasSources, reason: `${changed} changed since the build` };
  return { state: 'current' };
}

// The first build input (a file, or a folder whose entries changed) modified after `time`.
// Test files are not built; a folder's own time still shows one added or removed.
/** @param {number} time */
function changedSince(time) {
  for (const input of INPUTS) {
    const full = path.join(ROOT, input);
    if (!existsSync(full)) continue;
    const stat = statSync(full);
    if (stat.mtimeMs > time) return input;
    if (!stat.isDirectory()) continue;
    for (const entry of readdirSync(full, { recursive: true, encoding: 'utf8' })) {
      if (entry.endsWith('.test.ts')) continue;
      if (statSync(path.join(full, entry)).mtimeMs > time) return `${input}/${entry}`;
    }
  }
  return null;
}
