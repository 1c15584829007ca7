import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../lib/errors.js';
import type { App } from './types.js';
import { webDistDir } from './web-assets.js';

// A fixed URL, so not immutable: fresh for a day, then used while the browser revalidates it in
// the background (the ETag makes that a 304), so a new release reaches host pages within a day.
const CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

/**
 * `GET /embed.js` (decisions §13): the script that defines `Signet.mount` for integrators'
 * pages, built by `npm run build:web` (web/build-embed-script.ts). Loaded by other sites'
 * `<script>` tags, so it is shareable across origins (CORP cross-origin, CORS for any origin)
 * and typed exactly, since pages are sent with `nosniff`. Read on each request like the pages:
 * a few KB, never stale after a rebuild.
 */
export function registerEmbedScript(app: App): void {
  app.get('/embed.js', { schema: { hide: true } }, async (request, reply) => {
    let script: Buffer;
    try {
      script = await readFile(path.join(webDistDir(app), 'embed.js'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      throw new AppError(
        'service_unavailable',
        'The embed script is not built: run `npm run build:web` (npm start and npm test do it).',
      );
    }
    const etag = `"${createHash('sha256').update(script).digest('base64url').slice(0, 22)}"`;
    reply
      .header('cache-control', CACHE_CONTROL)
      .header('etag', etag)
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(script);
  });
}
