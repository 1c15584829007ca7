import type { RenderedEmail } from '../mail.service.js';
import { escapeHtml, htmlButton, htmlLayout } from './layout.js';
import { displayValue } from './untrusted.js';

/**
 * The e-mail that confirms a new account's address. Anyone can sign up with any address and
 * any name, so the name is shown as quoted data (see displayValue), not as whom we greet.
 */
export function renderVerifyEmail(input: { name: string; link: string }): RenderedEmail {
  const subject = 'Confirm your e-mail address for Signet';
  const intro = `A Signet account was created with this e-mail address, under the name “${displayValue(input.name)}”.`;
  const confirm = 'If it was you, confirm your e-mail address by opening this link:';
  const after = 'The link is valid for 48 hours. If you did not sign up, ignore this e-mail.';
  const text = `Hello,\n\n${intro}\n\n${confirm}\n${input.link}\n\n${after}\n`;
  const html = htmlLayout({
    lang: 'en',
    title: subject,
    body: `<p>Hello,</p><p>${escapeHtml(intro)}</p><p>${escapeHtml(confirm)}</p>${htmlButton(input.link, 'Confirm e-mail address')}<p>${escapeHtml(after)}</p>`,
  });
  return { subject, html, text };
}
