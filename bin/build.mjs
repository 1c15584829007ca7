// @ts-check
// `npm run build`: the server compiled file by file by tsc (tsconfig.build.json) into
// dist/server/src, with the one SDK module it imports in dist/sdk/src and its worker scripts
// (*.mjs) copied beside their modules, which is what the worker threads run; the main thread's
// bundle of the same sources in dist/server/bundle (bin/bundle.mjs); the web app built by Vite
// (`npm run build:web`, web/dist) and copied to dist/web/dist, where the compiled server looks
// for it (the same path relative to the server's modules as web/dist is to server/src).
// The SDK package is built too (sdk/scripts/build.mjs, into sdk/dist): the same tsc, a few seconds.
// dist/build.json is written last, with the time the build started; bin/build-state.mjs
// compares the sources against it (`npm start` builds when they are newer).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, STAMP } from './build-state.mjs';
import { bundleServer } from './bundle.mjs';

const DIST = path.join(ROOT, 'dist');

if (!existsSync(path.join(ROOT, 'node_modules', 'typescript'))) {
  console.error('signet: building needs the dev dependencies: run `npm ci` first.');
  process.exit(1);
}

const started = Date.now();
// Until the new stamp is written, dist/ is not current: `signet` runs the sources meanwhile.
rmSync(STAMP, { force: true });
for (const part of ['server', 'sdk', 'web'])
  rmSync(path.join(DIST, part), { recursive: true, force: true });

// Both at once: on two CPUs the pair takes little longer than the web build alone.
const failed = (
  await Promise.allSettled([
    run(process.execPath, [
      path.join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
    ]),
    // npm's own CLI when npm runs this, so the web app is built by the one `build:web` script.
    process.env.npm_execpath
      ? run(process.execPath, [process.env.npm_execpath, 'run', '--silent', 'build:web'])
      : run('npm', ['run', '--silent', 'build:web']),
    run(process.execPath, [path.join(ROOT, 'sdk', 'scripts', 'build.mjs')]),
  ])
).filter((r) => r.status === 'rejected');
if (failed.length) {
  for (const f of failed)
    console.error(`signet: ${f.reason instanceof Error ? f.reason.message : f.reason}`);
  process.exit(1);
}

await bundleServer();
const serverSrc = path.join(ROOT, 'server', 'src');
for (const file of readdirSync(serverSrc, { recursive: true, encoding: 'utf8' })) {
  if (file.endsWith('.mjs'))
    cpSync(path.join(serverSrc, file), path.join(DIST, 'server', 'src', file));
}
cpSync(path.join(ROOT, 'web', 'dist'), path.join(DIST, 'web', 'dist'), { recursive: true });
writeFileSync(
  STAMP,
  `${JSON.stringify({ startedAt: started, builtAt: new Date().toISOString() })}\n`,
);
console.error(`signet: built into dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);

/** @param {string} command @param {string[]} args */
function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve(undefined)
        : reject(
            new Error(
              `${[command, ...args].map((a) => path.basename(a)).join(' ')} failed (${signal ?? `exit ${code}`})`,
            ),
          ),
    );
  });
}
