#!/usr/bin/env -S node --max-semi-space-size=64
// The `signet` command. The V8 flag on the line above gives the young generation room for a busy
// server's short-lived request objects (docs/operations.md, "Node flags"); a process started as
// `node bin/signet.mjs` runs without it.
//
// It runs the compiled tree, dist/ (`npm run build`: plain Node, no dev dependency), when that is
// a build of the sources beside it, or when there are no sources (an installed tree, the
// container image). In a checkout whose build is missing or older than its sources it runs the
// TypeScript sources through tsx instead (bin/signet-dev.mjs), so it never runs code older than
// the checkout; with --build-if-stale first (`npm start` passes it) it builds and then runs the
// build.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildState, COMPILED_CLI, ROOT } from './build-state.mjs';

const BUILD_IF_STALE = '--build-if-stale';
const buildFirst = process.argv.indexOf(BUILD_IF_STALE);
if (buildFirst > 1) process.argv.splice(buildFirst, 1);

let build = buildState();
if (buildFirst > 1 && build.state !== 'current' && build.hasSources) {
  console.error(`signet: ${build.reason}: building it first (npm run build)…`);
  const { spawnSync } = await import('node:child_process');
  const built = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'build.mjs')], {
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  build = buildState();
}

if (build.state === 'current') {
  await import(pathToFileURL(COMPILED_CLI).href);
} else if (build.hasSources && resolves('tsx/esm/api')) {
  await import('./signet-dev.mjs');
} else {
  const why = build.hasSources
    ? 'tsx, which runs the sources, is a dev dependency and not installed'
    : 'there are no sources to build it from';
  console.error(`signet: ${build.reason}, and ${why}: run \`npm run build\`.`);
  process.exit(1);
}

/** @param {string} specifier */
function resolves(specifier) {
  try {
    import.meta.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}
