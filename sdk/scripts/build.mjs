// @ts-check
// `npm run build` in sdk/ (or `npm run build:sdk` at the root): the SDK compiled by tsc
// (sdk/tsconfig.build.json) into sdk/dist as ES modules with their .d.ts beside them; the
// verifier's command line gets a node shebang, since the one in its source runs it with tsx.
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SDK = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const DIST = path.join(SDK, 'dist');
// The root's TypeScript: the SDK has no dependencies of its own to install.
const tsc = createRequire(path.join(SDK, 'package.json')).resolve('typescript/bin/tsc');

rmSync(DIST, { recursive: true, force: true });
const code = await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, [tsc, '-p', path.join(SDK, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  child.once('error', reject);
  child.once('exit', (status) => resolve(status ?? 1));
});
if (code !== 0) {
  console.error('signet sdk: tsc failed');
  process.exit(1);
}
const bin = path.join(DIST, 'bin', 'verify-evidence.js');
writeFileSync(bin, readFileSync(bin, 'utf8').replace(/^#!.*\n/, '#!/usr/bin/env node\n'));
chmodSync(bin, 0o755);
console.error(`signet sdk: built into ${path.relative(process.cwd(), DIST) || '.'}`);
