import type { RenderedEmail } from '../mail.service.js';
import { escapeHtml, htmlButton, htmlLayout } from './layout.js';
import { displayValue } from './untrusted.js';

/**
 * Sent instead of a verification e-mail when someone signs up with an address that already
 * has an account: the signup answer cannot say so without revealing who has an account.
 */
export function renderAccountExists(input: {
  /** Null for an unverified account: its name was typed by whoever signed up with the address. */
  name: string | null;
  loginUrl: string;
}): RenderedEmail {
  const hello = input.name === null ? 'Hello,' : `Hello ${displayValue(input.name)},`;
  const subject = 'Someone tried to sign up for Signet with your e-mail address';
  const intro =
    'Someone, perhaps you, tried to create a Signet account with this e-mail address. It already has an account, so no new account was made and nothing in yours changed.';
  const ifYou = 'If it was you, log in with your existing account:';
  const ifNot = 'If it was not you, you can ignore this e-mail.';
  const text = `${hello}\n\n${intro}\n\n${ifYou}\n${input.loginUrl}\n\n${ifNot}\n`;
  const html = htmlLayout({
    lang: 'en',
    title: subject,
    body: `<p>${escapeHtml(hello)}</p><p>${escapeHtml(intro)}</p><p>${escapeHtml(ifYou)}</p>${htmlButton(input.loginUrl, 'Log in to Signet')}<p>${escapeHtml(ifNot)}</p>`,
  });
  return { subject, html, text };
}
