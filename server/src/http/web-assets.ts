import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sendProblem } from './errors.js';
import { AppError } from '../lib/errors.js';
import type { App } from './types.js';

/** The HTML entry points of the web app (web/*.html, built to web/dist). */
export type WebPage = 'sign' | 'index';

const DIST_DIR = 'signetWebDistDir';

/**
 * Serves the built web app's assets (web/dist/assets/*) with year-long immutable caching: every
 * file name there carries a content hash or, for pdf.js resources, the pdf.js version. Pages
 * themselves are sent by routes through `sendWebPage`, so each keeps its own URL and checks.
 */
export async function registerWebAssets(app: App, options: { distDir: string }): Promise<void> {
  const distDir = path.resolve(options.distDir);
  app.decorate(DIST_DIR, distDir);
  await app.register(async (scope) => {
    // @fastify/static refuses paths outside its root (`/assets/%2e%2e/x`) and dotfiles with a
    // bare 403 error; to a client that is a file that is not there. Others go to the app's handler.
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.statusCode !== 403 && error.statusCode !== 404) throw error;
      return sendProblem(request, reply, new AppError('not_found', 'No such asset.'));
    });
    await scope.register(fastifyStatic, {
      root: path.join(distDir, 'assets'),
      prefix: '/assets/',
      decorateReply: false,
      // Missing until `npm run build:web` has run; pages then answer 503 and say so.
      suppressWarning: true,
      index: false,
      list: false,
      dotfiles: 'deny',
      maxAge: '365d',
      immutable: true,
      // The build writes .br and .gz next to every text asset (web/vite.config.ts).
      preCompressed: true,
    });
  });
}

/** Where the built web app is (web/dist), for files served outside /assets/ (embed.js). */
export function webDistDir(app: FastifyInstance): string {
  return app.getDecorator<string>(DIST_DIR);
}

/**
 * Sends a built page (`web/dist/{page}.html`), with `head` (markup of the caller's, escaped by
 * it) added at the end of its head. Read on each request: it is a few hundred bytes, and a
 * rebuild while the server runs (which deletes the old hashed assets) never leaves a stale page
 * pointing at files that are gone.
 */
export async function sendWebPage(
  reply: FastifyReply,
  page: WebPage,
  options: { head?: string } = {},
): Promise<FastifyReply> {
  const distDir = reply.server.getDecorator<string>(DIST_DIR);
  let html: string;
  try {
    html = await readFile(path.join(distDir, `${page}.html`), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new AppError(
      'service_unavailable',
      'The web pages are not built: run `npm run build:web` (npm start and npm test do it).',
    );
  }
  if (options.head) html = html.replace('</head>', `${options.head}</head>`);
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex, nofollow')
    .send(html);
}
