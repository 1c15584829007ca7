import type { RenderedEmail } from '../mail.service.js';
import { brandTextHeader, type EmailBrand } from './brand-layout.js';
import { textDirection } from '../../../i18n/index.js';
import { escapeHtml, htmlButton, htmlLayout } from './layout.js';

/**
 * The one shape of Signet's messages to people: a greeting, paragraphs, an optional quoted text
 * (the sender's message, a reason), an optional button, a small footer; as text and as HTML.
 * A tenant's brand heads both parts of the e-mails of its documents.
 */
export function renderMessage(input: {
  language: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  quote?: { label: string; text: string };
  button?: { href: string; label: string };
  after?: string[];
  footer?: string;
  brand?: EmailBrand | null;
}): RenderedEmail {
  const after = input.after ?? [];
  const text = [
    ...brandTextHeader(input.brand),
    input.greeting,
    '',
    ...input.paragraphs.flatMap((p) => [p, '']),
    ...(input.quote ? [input.quote.label, input.quote.text, ''] : []),
    ...(input.button ? [`${input.button.label}: ${input.button.href}`, ''] : []),
    ...after.flatMap((p) => [p, '']),
    ...(input.footer ? [input.footer, ''] : []),
  ].join('\n');
  // The quote's rule stands on the side the text starts from.
  const start = textDirection(input.language) === 'rtl' ? 'right' : 'left';
  const html = htmlLayout({
    lang: input.language,
    title: input.subject,
    brand: input.brand,
    body: [
      `<p>${escapeHtml(input.greeting)}</p>`,
      ...input.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
      input.quote
        ? `<p><strong>${escapeHtml(input.quote.label)}</strong></p><blockquote style="border-${start}:3px solid #d1d5db;margin:0;padding-${start}:12px;white-space:pre-wrap">${escapeHtml(input.quote.text)}</blockquote>`
        : '',
      input.button ? htmlButton(input.button.href, input.button.label, input.brand) : '',
      ...after.map((p) => `<p style="font-size:13px">${escapeHtml(p)}</p>`),
      input.footer ? `<p style="color:#6b7280;font-size:12px">${escapeHtml(input.footer)}</p>` : '',
    ].join(''),
  });
  return { subject: input.subject, html, text };
}
