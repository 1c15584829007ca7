import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { buildEmbedScript } from './build-embed-script.js';

const webDir = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const pdfjsDir = path.dirname(require.resolve('pdfjs-dist/package.json'));
const pdfjsVersion = (
  JSON.parse(readFileSync(path.join(pdfjsDir, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

// pdf.js fetches these at run time (standard fonts for PDFs that do not embed them, CMaps for
// CJK text, JS decoders for JPX/JBIG2 images). They are copied next to the bundle so nothing is
// ever fetched from a CDN; the version in the folder name keeps the long cache headers honest.
// The .wasm files are left out: the CSP has no 'wasm-unsafe-eval', so pdf.js runs with useWasm off.
function copyPdfjsResources(): Plugin {
  return {
    name: 'signet-copy-pdfjs-resources',
    apply: 'build',
    writeBundle(options) {
      const target = path.join(
        options.dir ?? path.join(webDir, 'dist'),
        'assets',
        `pdfjs-${pdfjsVersion}`,
      );
      for (const dir of ['standard_fonts', 'cmaps']) {
        cpSync(path.join(pdfjsDir, dir), path.join(target, dir), { recursive: true });
      }
      // pdf.js 5 (the last to run on Node 20) decodes JBIG2 in its worker and has no such file.
      for (const file of ['openjpeg_nowasm_fallback.js', 'jbig2_nowasm_fallback.js']) {
        const from = path.join(pdfjsDir, 'wasm', file);
        if (existsSync(from)) cpSync(from, path.join(target, 'wasm', file));
      }
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// The server has no compression middleware: it serves these .br/.gz siblings as they are
// (@fastify/static preCompressed), which costs nothing per request. A phone then downloads
// ~0.7 MB instead of ~2.3 MB of scripts, fonts and worker.
function precompressAssets(): Plugin {
  let outDir = '';
  return {
    name: 'signet-precompress-assets',
    apply: 'build',
    writeBundle(options) {
      outDir = options.dir ?? path.join(webDir, 'dist');
    },
    async closeBundle() {
      const assets = path.join(outDir, 'assets');
      const files = readdirSync(assets, { recursive: true, withFileTypes: true })
        .filter((f) => f.isFile() && /\.(m?js|css|ttf|pfb|svg|json)$/.test(f.name))
        .map((f) => path.join(f.parentPath, f.name));
      await Promise.all(
        files.map(async (file) => {
          const data = await readFile(file);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }),
            gzipAsync(data, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

// One Vite app, one HTML entry per page: the dashboard (index.html) and the signing page
// (sign.html). The server answers /sign/{token} with dist/sign.html, the dashboard's routes with
// dist/index.html, and serves dist/assets/* itself.
export default defineConfig({
  root: webDir,
  base: '/',
  publicDir: false,
  plugins: [react(), copyPdfjsResources(), precompressAssets(), buildEmbedScript(webDir)],
  build: {
    outDir: path.join(webDir, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    // The preload polyfill would be extra code every modern browser ignores.
    modulePreload: { polyfill: false },
    // data: URLs for small assets are allowed by the CSP, but module workers and scripts never are.
    assetsInlineLimit: (file) => (/\.(m?js)$/.test(file) ? false : undefined),
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      input: {
        sign: path.join(webDir, 'sign.html'),
        index: path.join(webDir, 'index.html'),
      },
    },
  },
});
