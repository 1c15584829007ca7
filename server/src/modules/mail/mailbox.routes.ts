import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { errorResponses } from '../../http/problem-schema.js';
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

// Phone-sized too: long addresses and links wrap, the list scrolls inside its own box.
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;overflow-wrap:anywhere}h1{font-size:1.6rem}.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}.banner{background:#fef3c7;padding:.5rem 1rem;border-radius:6px}.links li{margin:.3rem 0}iframe{display:block;width:100%;height:32rem;border:1px solid #ddd}</style></head><body><p class="banner" role="status">Sandbox: e-mails are stored here instead of being sent.</p>${body}</body></html>`;

const unescapeHtml = (value: string) =>
  value.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] as string,
  );

/** The web links of an e-mail's HTML, in order, each once (our templates quote every href). */
function linksOf(html: string): string[] {
  const hrefs = [...html.matchAll(/<a\s[^>]*href="([^"]*)"/gi)].map((m) => unescapeHtml(m[1]));
  return [...new Set(hrefs.filter((href) => /^https?:\/\//i.test(href)))];
}

/**
 * The e-mail's HTML for the sandboxed frame, with `<base target="_top">`: a link clicked inside
 * opens as the whole page, as from a mail client. Without it the link opened inside the frame,
 * where the sandbox blocks the page's scripts and gives it no origin, so the signing page stayed
 * empty. The sandbox allows exactly that navigation (after a click), never scripts.
 */
function framedEmailHtml(html: string): string {
  const base = '<base target="_top">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) return base + html;
  const at = head.index + head[0].length;
  return html.slice(0, at) + base + html.slice(at);
}

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
        operationId: 'listDevMailbox',
        summary: 'Sandbox: list the stored e-mails',
        security: [],
        tags: ['sandbox'],
        description: 'Stored e-mails, newest first (HTML, or JSON with Accept: application/json).',
        querystring: z.object({ to: z.string().optional() }),
        response: {
          200: z.union([z.object({ emails: z.array(emailJson) }), z.string()]),
          ...errorResponses(404),
        },
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
            `<h1>Dev mailbox</h1><div class="scroll"><table><thead><tr><th>Time</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows || '<tr><td colspan="3">No e-mails yet.</td></tr>'}</tbody></table></div>`,
          ),
        );
    },
  );

  app.get(
    '/dev/mailbox/:emailId',
    {
      onRequest,
      schema: {
        operationId: 'getDevMailboxEmail',
        summary: 'Sandbox: show one stored e-mail',
        security: [],
        tags: ['sandbox'],
        params: z.object({ emailId: z.string() }),
        response: {
          200: {
            description: 'The e-mail, shown as an HTML page',
            content: { 'text/html': { schema: z.string() } },
          },
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const e = await findEmail(deps.db.kysely, request.params.emailId);
      if (!e) throw new AppError('not_found', 'No such e-mail.');
      const file = attachmentOf(e);
      const attached = file
        ? `<p>Attachment: <a href="${file.url}" download>${escapeHtml(file.filename)}</a> (${Math.ceil(file.size / 1024)} KB)</p>`
        : '';
      // The links again as plain links of this page: they open the same way, and can be copied.
      const links = linksOf(e.html);
      const linkList = links.length
        ? `<h2>Links in this e-mail</h2><ul class="links">${links.map((href) => `<li><a href="${escapeHtml(href)}">${escapeHtml(href)}</a></li>`).join('')}</ul>`
        : '';
      // The stored HTML is our own template output; it is shown sandboxed, not inlined: no
      // allow-scripts (and the page's CSP, which the frame inherits), no allow-same-origin.
      return reply
        .type('text/html; charset=utf-8')
        .send(
          page(
            `${e.subject} - Dev mailbox`,
            `<p><a href="/dev/mailbox">All e-mails</a></p><h1>${escapeHtml(e.subject)}</h1><p>To: ${escapeHtml(e.to_address)}</p>${attached}<iframe title="E-mail body" sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation" srcdoc="${escapeHtml(framedEmailHtml(e.html))}"></iframe>${linkList}<h2>Text version</h2><pre style="white-space:pre-wrap">${escapeHtml(e.text)}</pre>`,
          ),
        );
    },
  );

  app.get(
    '/dev/mailbox/:emailId/attachment',
    {
      config: { fileResponse: 'The attached file (the signed copy)' },
      onRequest,
      schema: {
        operationId: 'getDevMailboxAttachment',
        summary: "Sandbox: download an e-mail's attachment",
        security: [],
        tags: ['sandbox'],
        description: 'The file an e-mail carries (the signed copy), as the recipient gets it.',
        params: z.object({ emailId: z.string() }),
        response: { 200: z.unknown(), ...errorResponses(404) },
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
