import type { RenderedEmail } from '../mail.service.js';
import { escapeHtml, htmlButton, htmlLayout } from './layout.js';
import { displayValue } from './untrusted.js';

/**
 * The invitation to join a tenant. Written alike whether or not the address has an account:
 * the page behind the link offers log-in and sign-up, so nothing here depends on who has one.
 * The tenant's and inviter's names are anyone's choice: they are shown as quoted data (see
 * displayValue), never in the subject and never as the one speaking.
 */
export function renderMemberInvitation(input: {
  inviterName: string;
  tenantName: string;
  role: 'owner' | 'admin' | 'member';
  link: string;
  validDays: number;
}): RenderedEmail {
  const tenant = displayValue(input.tenantName);
  const inviter = displayValue(input.inviterName);
  const subject = 'Invitation to join a team on Signet';
  const intro = `You have been invited to join a team on Signet, an e-signing service, as ${input.role}.`;
  const data = [`Team name: “${tenant}”`, `Invited by the Signet user named: “${inviter}”`];
  const note = 'Both names were typed by whoever made the invitation; Signet has not checked them.';
  const how =
    'Open the link to accept. You can log in, or create an account with this e-mail address, on the way.';
  const validity = `The link is valid for ${input.validDays} days and works once. If you do not know the sender, ignore this e-mail: nothing happens unless you accept.`;
  const text = `Hello,\n\n${intro}\n\n${data.join('\n')}\n(${note})\n\n${how}\n${input.link}\n\n${validity}\n`;
  const html = htmlLayout({
    lang: 'en',
    title: subject,
    body: `<p>Hello,</p><p>${escapeHtml(intro)}</p><p>${data.map(escapeHtml).join('<br>')}<br><small>${escapeHtml(note)}</small></p><p>${escapeHtml(how)}</p>${htmlButton(input.link, 'View the invitation')}<p>${escapeHtml(validity)}</p>`,
  });
  return { subject, html, text };
}
