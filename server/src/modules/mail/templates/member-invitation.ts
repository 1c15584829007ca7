import type { RenderedEmail } from '../mail.service.js';
import { escapeHtml, htmlButton, htmlLayout } from './layout.js';

/**
 * The invitation to join a tenant. Written alike whether or not the address has an account:
 * the page behind the link offers log-in and sign-up, so nothing here depends on who has one.
 */
export function renderMemberInvitation(input: {
  inviterName: string;
  tenantName: string;
  role: 'owner' | 'admin' | 'member';
  link: string;
  validDays: number;
}): RenderedEmail {
  const subject = `${input.inviterName} invites you to join "${input.tenantName}" on Signet`;
  const intro = `${input.inviterName} invites you to join the team "${input.tenantName}" on Signet, an e-signing service, as ${input.role}.`;
  const how =
    'Open the link to accept. You can log in, or create an account with this e-mail address, on the way.';
  const validity = `The link is valid for ${input.validDays} days and works once. If you do not know the sender, ignore this e-mail: nothing happens unless you accept.`;
  const text = `Hello,\n\n${intro}\n\n${how}\n${input.link}\n\n${validity}\n`;
  const html = htmlLayout({
    lang: 'en',
    title: subject,
    body: `<p>Hello,</p><p>${escapeHtml(intro)}</p><p>${escapeHtml(how)}</p>${htmlButton(input.link, 'View the invitation')}<p>${escapeHtml(validity)}</p>`,
  });
  return { subject, html, text };
}
