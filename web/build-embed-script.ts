import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Builds `/embed.js` (decisions §13): web/src/embed/embed-script.ts and the SDK's `mount` it
 * imports, bundled by esbuild into one classic script with no imports and no dependencies, a
 * few KB minified, at web/dist/embed.js, where the server reads it (http/embed-script.ts). Not a
 * Vite entry: those are ES modules with hashed names, and host pages need one fixed URL for a
 * plain `<script src>`.
 */
export function buildEmbedScript(webDir: string): Plugin {
  let outDir = '';
  return {
    name: 'signet-build-embed-script',
    apply: 'build',
    writeBundle(options) {
      outDir = options.dir ?? path.join(webDir, 'dist');
    },
    async closeBundle() {
      const esbuild = await import('esbuild');
      await esbuild.build({
        entryPoints: [path.join(webDir, 'src', 'embed', 'embed-script.ts')],
        outfile: path.join(outDir, 'embed.js'),
        bundle: true,
        format: 'iife',
        minify: true,
        // What host pages still run: no syntax newer than their browsers know.
        target: 'es2018',
        legalComments: 'none',
        banner: { js: '/* Signet embed: Signet.mount(element, {url, onEvent}) */' },
        logLevel: 'warning',
      });
    },
  };
}
