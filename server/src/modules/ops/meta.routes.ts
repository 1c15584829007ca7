import { z } from 'zod';
import { sendWebPage } from '../../http/web-assets.js';
import type { App, AppDeps } from '../../http/types.js';

export const metaSchema = z.object({
  environment: z.enum(['sandbox', 'production']),
  // True when e-mails are stored for /dev/mailbox instead of being sent (sandbox without SMTP).
  devMailbox: z.boolean(),
});

/**
 * What the dashboard needs to know about the host before anyone logs in (the sandbox banner,
 * the dev mailbox link), and the dashboard's own page URLs.
 */
export function registerMetaRoutes(app: App, deps: AppDeps) {
  const { config } = deps;
  app.get(
    '/api/meta',
    {
      schema: {
        operationId: 'getMeta',
        summary: "The service's environment and public settings",
        tags: ['operations'],
        security: [],
        response: { 200: metaSchema },
      },
    },
    async () => ({
      environment: config.env,
      devMailbox: config.env === 'sandbox' && !config.smtpUrl,
    }),
  );

  // The dashboard routes on the client: every one of these URLs answers the same page, so a
  // reload or a bookmarked link opens the right view.
  const page = { schema: { hide: true } };
  app.get('/', page, async (_request, reply) => sendWebPage(reply, 'index'));
  app.get('/login', page, async (_request, reply) => sendWebPage(reply, 'index'));
  app.get('/signup', page, async (_request, reply) => sendWebPage(reply, 'index'));
  app.get('/app', page, async (_request, reply) => sendWebPage(reply, 'index'));
  app.get('/app/*', page, async (_request, reply) => sendWebPage(reply, 'index'));
}
