// @ts-check
// The main thread's bundle (part of `npm run build`, bin/build.mjs): server/src/cli.ts and the
// dependencies it loads, bundled by esbuild into dist/server/bundle/ as ES modules split at
// every dynamic import(), so what the code loads on first use (the seal certificate, the PDF
// libraries, S3, `signet verify`) still loads only then. Node loads a few files at start instead
// of some nine hundred modules, which halves the time that takes (docs/operations.md).
//
// The worker threads do not use it: they run tsc's file-per-module output in dist/server/src
// (bin/build.mjs). Each source module's `import.meta.url` and `import.meta.dirname` are
// rewritten to that module's place in dist/server/src, so the paths it builds (its worker
// script, fonts through createRequire, the web app) are those it has in the compiled tree.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './build-state.mjs';

const SOURCES = path.join(ROOT, 'server', 'src');
const COMPILED = path.join(ROOT, 'dist', 'server', 'src');
/** Where the bundle goes. */
export const BUNDLE_DIR = path.join(ROOT, 'dist', 'server', 'bundle');

// Left to Node: native addons; packages that read their own files at run time (swagger-ui's
// page, swagger's package.json, pino's transport workers, pdf.js's and harfbuzz's data, the
// fonts); and the large ones loaded on first use only, which bundling would not speed up.
const EXTERNAL = [
  'better-sqlite3',
  '@node-rs/argon2',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'pino',
  'thread-stream',
  'pdfjs-dist-node',
  '@libpdf/core',
  // Shared with @libpdf/core, which compresses through it (server/src/modules/sealing/native-deflate.ts).
  'pako',
  'harfbuzzjs',
  '@expo-google-fonts/*',
  '@aws-sdk/*',
  'node-forge',
  'pkijs',
  'asn1js',
  'pg-native',
];

/** Bundles the main thread's code; throws on any error. */
export async function bundleServer() {
  const esbuild = await import('esbuild');
  /** @type {import('esbuild').Plugin} */
  const placeModules = {
    name: 'signet-module-places',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        let contents = await readFile(args.path, 'utf8');
        if (contents.includes('import.meta.')) {
          const compiled = path.join(COMPILED, path.relative(SOURCES, args.path));
          const url = toPosix(path.relative(BUNDLE_DIR, compiled.replace(/\.ts$/, '.js')));
          const dir = toPosix(path.relative(BUNDLE_DIR, path.dirname(compiled)));
          contents = contents
            .replaceAll('import.meta.url', `new URL(${JSON.stringify(url)}, import.meta.url).href`)
            .replaceAll(
              'import.meta.dirname',
              `__signetJoin(import.meta.dirname, ${JSON.stringify(dir)})`,
            );
        }
        return { contents, loader: 'ts' };
      });
    },
  };
  await esbuild.build({
    entryPoints: [path.join(SOURCES, 'cli.ts')],
    outdir: BUNDLE_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // Bundled CommonJS packages call require(): every output file gets one (and the path join
    // the rewritten import.meta.dirname uses).
    banner: {
      js: [
        "import { createRequire as __signetCreateRequire } from 'node:module';",
        "import { join as __signetJoin } from 'node:path';",
        'const require = __signetCreateRequire(import.meta.url);',
      ].join('\n'),
    },
    plugins: [placeModules],
    logLevel: 'warning',
    legalComments: 'none',
  });
}

/** @param {string} p */
function toPosix(p) {
  return p.split(path.sep).join('/');
}
