import { format, formatDateTime, messages, type Language } from '../../../i18n/index.js';
import type { RenderedEmail } from '../mail.service.js';
import type { EmailBrand } from './brand-layout.js';
import { renderMessage } from './message.js';
import { DOCUMENT_NAME_MAX, displayValue } from './untrusted.js';

/** Languages e-mails are written in. */
export type EmailLanguage = Language;

/**
 * The invitation (or reminder) to sign, in the document's language; with `approval`, to review
 * and approve (an approver's: decisions §12).
 */
export function renderInvitation(input: {
  language: EmailLanguage;
  signeeName: string;
  senderName: string;
  documentName: string;
  signingUrl: string;
  signingMessage: string | null;
  reminder?: boolean;
  approval?: boolean;
  /** The document's deadline (its `expiresAt`), said when there is one. */
  expiresAt?: string | null;
  /** The document's tenant's brand (decisions §13). */
  brand?: EmailBrand | null;
}): RenderedEmail {
  const m = messages(input.language).email;
  const words = input.approval ? { ...m.invitation, ...m.approval } : m.invitation;
  // Names chosen by the sender, shown quoted and bounded, never as the one speaking.
  const values = {
    sender: displayValue(input.senderName),
    document: displayValue(input.documentName, DOCUMENT_NAME_MAX),
  };
  const message = input.signingMessage?.trim() || null;
  return renderMessage({
    language: input.language,
    subject: format(input.reminder ? words.reminderSubject : words.subject, values),
    greeting: format(m.greeting, { name: displayValue(input.signeeName) }),
    paragraphs: [
      format(input.reminder ? words.reminderBody : words.body, values),
      ...(input.expiresAt
        ? [format(m.invitation.deadline, { time: formatDateTime(input.expiresAt, input.language) })]
        : []),
    ],
    quote: message ? { label: words.message, text: message } : undefined,
    button: { href: input.signingUrl, label: words.button },
    footer: words.footer,
    brand: input.brand,
  });
}
