import type { RenderedEmail } from '../mail.service.js';
import { escapeHtml, htmlButton, htmlLayout } from './layout.js';

/** The e-mail that confirms a new account's address. */
export function renderVerifyEmail(input: { name: string; link: string }): RenderedEmail {
  const subject = 'Confirm your e-mail address for Signet';
  const text = `Hello ${input.name},\n\nConfirm your e-mail address by opening this link:\n${input.link}\n\nThe link is valid for 48 hours. If you did not sign up, ignore this e-mail.\n`;
  const html = htmlLayout({
    lang: 'en',
    title: subject,
    body: `<p>Hello ${escapeHtml(input.name)},</p><p>Confirm your e-mail address to start sending documents.</p>${htmlButton(input.link, 'Confirm e-mail address')}<p>The link is valid for 48 hours. If you did not sign up, ignore this e-mail.</p>`,
  });
  return { subject, html, text };
}
