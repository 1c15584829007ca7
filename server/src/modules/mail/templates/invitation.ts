import { format, messages, type Language } from '../../../i18n/index.js';
import type { RenderedEmail } from '../mail.service.js';
import type { EmailBrand } from './brand-layout.js';
import { renderMessage } from './message.js';
import { DOCUMENT_NAME_MAX, displayValue } from './untrusted.js';

/** Languages e-mails are written in. */
export type EmailLanguage = Language;

/** The invitation (or reminder) to sign, in the document's language. */
export function renderInvitation(input: {
  language: EmailLanguage;
  signeeName: string;
  senderName: string;
  documentName: string;
  signingUrl: string;
  signingMessage: string | null;
  reminder?: boolean;
  /** The document's tenant's brand (decisions §13). */
  brand?: EmailBrand | null;
}): RenderedEmail {
  const m = messages(input.language).email;
  // Names chosen by the sender, shown quoted and bounded, never as the one speaking.
  const values = {
    sender: displayValue(input.senderName),
    document: displayValue(input.documentName, DOCUMENT_NAME_MAX),
  };
  const message = input.signingMessage?.trim() || null;
  return renderMessage({
    language: input.language,
    subject: format(input.reminder ? m.invitation.reminderSubject : m.invitation.subject, values),
    greeting: format(m.greeting, { name: displayValue(input.signeeName) }),
    paragraphs: [format(input.reminder ? m.invitation.reminderBody : m.invitation.body, values)],
    quote: message ? { label: m.invitation.message, text: message } : undefined,
    button: { href: input.signingUrl, label: m.invitation.button },
    footer: m.invitation.footer,
    brand: input.brand,
  });
}
