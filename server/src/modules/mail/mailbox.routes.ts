import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import type { App, AppDeps } from '../../http/types.js';
import { findEmail, listEmails } from './mail.repo.js';
import { escapeHtml } from './templates/layout.js';
import { contentDisposition } from '../../http/content-disposition.js';
import type { StoredAttachment } from './mail.service.js';

function isLoopback(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'loopback';
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}.banner{background:#fef3c7;padding:.5rem 1rem;border-radius:6px}</style></head><body><p class="banner" role="status">Sandbox: e-mails are stored here instead of being sent.</p>${body}</body></html>`;

/**
 * The sandbox's dev mailbox: every e-mail the service would have sent. Never in production.
 * It holds every tenant's signing links, so only this machine may read it (the client address
 * is loopback) unless DEV_MAILBOX_PUBLIC=true.
 */
export function registerMailboxRoutes(app: App, deps: AppDeps) {
  const onRequest = async (request: FastifyRequest) => {
    if (!deps.config.devMailboxPublic && !isLoopback(request.ip)) {
      throw new AppError(
        'not_found',
        'The dev mailbox answers only on this machine (set DEV_MAILBOX_PUBLIC=true to share it).',
      );
    }
  };
  const emailJson = z.object({
    id: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    status: z.string(),
    createdAt: z.string(),
    attachment: z
      .object({ filename: z.string(), size: z.number(), url: z.string() })
      .nullable()
      .describe('a file sent with the e-mail (the signed copy), downloadable here'),
  });
  const attachmentOf = (e: { id: string; attachment: string | null }) => {
    if (!e.attachment) return null;
    const a = JSON.parse(e.attachment) as StoredAttachment;
    return { filename: a.filename, size: a.size, url: `/dev/mailbox/${e.id}/attachment` };
  };

  app.get(
    '/dev/mailbox',
    {
      onRequest,
      schema: {
        tags: ['sandbox'],
        description: 'Stored e-mails, newest first (HTML, or JSON with Accept: application/json).',
        querystring: z.object({ to: z.string().optional() }),
        response: { 200: z.union([z.object({ emails: z.array(emailJson) }), z.string()]) },
      },
    },
    async (request, reply) => {
      const emails = await listEmails(deps.db.kysely, {
        to: request.query.to?.toLowerCase(),
        limit: 200,
      });
      if (request.headers.accept?.includes('application/json')) {
        return {
          emails: emails.map((e) => ({
            id: e.id,
            to: e.to_address,
            subject: e.subject,
            text: e.text,
            html: e.html,
            status: e.status,
            createdAt: e.created_at,
            attachment: attachmentOf(e),
          })),
        };
      }
      const rows = emails
        .map(
          (e) =>
            `<tr><td>${escapeHtml(e.created_at)}</td><td>${escapeHtml(e.to_address)}</td><td><a href="/dev/mailbox/${e.id}">${escapeHtml(e.subject)}</a></td></tr>`,
        )
        .join('');
      return reply
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Dev mailbox - Signet',
            `<h1>Dev mailbox</h1><table><thead><tr><th>Time</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows || '<tr><td colspan="3">No e-mails yet.</td></tr>'}</tbody></table>`,
          ),
        );
    },
  );

  app.get(
    '/dev/mailbox/:emailId',
    { onRequest, schema: { tags: ['sandbox'], params: z.object({ emailId: z.string() }) } },
    async (request, reply) => {
      const e = await findEmail(deps.db.kysely, request.params.emailId);
      if (!e) throw new AppError('not_found', 'No such e-mail.');
      const file = attachmentOf(e);
      const attached = file
        ? `<p>Attachment: <a href="${file.url}" download>${escapeHtml(file.filename)}</a> (${Math.ceil(file.size / 1024)} KB)</p>`
        : '';
      // The stored HTML is our own template output; it is shown sandboxed, not inlined.
      return reply
        .type('text/html; charset=utf-8')
        .send(
          page(
            `${e.subject} - Dev mailbox`,
            `<p><a href="/dev/mailbox">All e-mails</a></p><h1>${escapeHtml(e.subject)}</h1><p>To: ${escapeHtml(e.to_address)}</p>${attached}<iframe title="E-mail body" sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation" style="width:100%;height:32rem;border:1px solid #ddd" srcdoc="${escapeHtml(e.html)}"></iframe><h2>Text version</h2><pre style="white-space:pre-wrap">${escapeHtml(e.text)}</pre>`,
          ),
        );
    },
  );

  app.get(
    '/dev/mailbox/:emailId/attachment',
    {
      onRequest,
      schema: {
        tags: ['sandbox'],
        description: 'The file an e-mail carries (the signed copy), as the recipient gets it.',
        params: z.object({ emailId: z.string() }),
      },
    },
    async (request, reply) => {
      const e = await findEmail(deps.db.kysely, request.params.emailId);
      if (!e?.attachment) throw new AppError('not_found', 'No such attachment.');
      const a = JSON.parse(e.attachment) as StoredAttachment;
      const stream = await deps.storage.get(a.key).catch(() => {
        throw new AppError('not_found', 'The attached file no longer exists.');
      });
      return reply
        .type(a.contentType)
        .header('content-disposition', contentDisposition(a.filename))
        .send(stream);
    },
  );
}
