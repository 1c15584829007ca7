import type { RenderedEmail } from '../mail.service.js';
import { escapeHtml, htmlButton, htmlLayout } from './layout.js';
import { displayValue } from './untrusted.js';

/**
 * The link to choose a new password. It opens a dashboard page with a form, so a mail scanner
 * that fetches links uses nothing up: only submitting the form spends the token.
 */
export function renderPasswordReset(input: {
  /** Null for an unverified account: its name was typed by whoever signed up with the address. */
  name: string | null;
  link: string;
  validMinutes: number;
}): RenderedEmail {
  const hello = input.name === null ? 'Hello,' : `Hello ${displayValue(input.name)},`;
  const subject = 'Reset your Signet password';
  const intro =
    'Someone, perhaps you, asked to reset the password of your Signet account. Choose a new password by opening this link:';
  const validity = `The link is valid for ${input.validMinutes} minutes and works once; asking again replaces it.`;
  const effect =
    'Setting a new password logs you out on every device. Your API keys keep working: revoke any you do not recognise on the API keys page.';
  const ifNot = 'If you did not ask for this, ignore this e-mail: your password stays as it is.';
  const text = `${hello}\n\n${intro}\n${input.link}\n\n${validity}\n${effect}\n\n${ifNot}\n`;
  const html = htmlLayout({
    lang: 'en',
    title: subject,
    body: `<p>${escapeHtml(hello)}</p><p>${escapeHtml(intro)}</p>${htmlButton(input.link, 'Choose a new password')}<p>${escapeHtml(validity)}</p><p>${escapeHtml(effect)}</p><p>${escapeHtml(ifNot)}</p>`,
  });
  return { subject, html, text };
}
