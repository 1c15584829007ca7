import { format, formatDateTime, messages } from '../../../i18n/index.js';
import type { RenderedEmail } from '../mail.service.js';
import type { EmailBrand } from './brand-layout.js';
import { renderMessage } from './message.js';
import { DOCUMENT_NAME_MAX, displayValue } from './untrusted.js';

type Common = {
  language: string;
  recipientName: string;
  documentName: string;
  /** The document's tenant's brand (decisions §13). */
  brand?: EmailBrand | null;
};

/** The signed copy: attached, or (too large to attach) behind a link valid until `expiresAt`. */
export function renderSignedCopy(
  input: Common & { link?: { url: string; expiresAt: string; size: string } },
): RenderedEmail {
  const m = messages(input.language).email;
  const values = { document: displayValue(input.documentName, DOCUMENT_NAME_MAX) };
  return renderMessage({
    language: input.language,
    brand: input.brand,
    subject: format(m.signedCopy.subject, values),
    greeting: format(m.greeting, { name: displayValue(input.recipientName) }),
    paragraphs: [
      input.link
        ? format(m.signedCopy.linkBody, { ...values, size: input.link.size })
        : format(m.signedCopy.body, values),
    ],
    button: input.link ? { href: input.link.url, label: m.signedCopy.button } : undefined,
    after: [
      ...(input.link
        ? [
            format(m.signedCopy.linkValid, {
              date: formatDateTime(input.link.expiresAt, input.language),
            }),
          ]
        : []),
      m.signedCopy.verify,
    ],
  });
}

/** To the sender: a signee declined, with their reason. */
export function renderDeclined(
  input: Common & { signeeName: string; signeeEmail: string; reason: string; documentUrl: string },
): RenderedEmail {
  const m = messages(input.language).email;
  const values = {
    document: displayValue(input.documentName, DOCUMENT_NAME_MAX),
    signee: displayValue(input.signeeName),
    email: input.signeeEmail,
  };
  return renderMessage({
    language: input.language,
    brand: input.brand,
    subject: format(m.declined.subject, values),
    greeting: format(m.greeting, { name: displayValue(input.recipientName) }),
    paragraphs: [format(m.declined.body, values)],
    quote: { label: m.declined.reason, text: input.reason },
    button: { href: input.documentUrl, label: m.declined.button },
  });
}

/**
 * To the other invited signees: someone declined, their link no longer works; `cc`: to a cc
 * recipient, who held no link.
 */
export function renderDeclinedNotice(
  input: Common & { signeeName: string; cc?: boolean },
): RenderedEmail {
  const m = messages(input.language).email;
  const values = {
    document: displayValue(input.documentName, DOCUMENT_NAME_MAX),
    signee: displayValue(input.signeeName),
  };
  return renderMessage({
    language: input.language,
    brand: input.brand,
    subject: format(m.declinedNotice.subject, values),
    greeting: format(m.greeting, { name: displayValue(input.recipientName) }),
    paragraphs: [
      format(input.cc ? m.ccNotice.declined : m.declinedNotice.body, values),
      m.nothingToDo,
    ],
  });
}

/**
 * To the invited signees (and cc recipients: `cc`): the sender cancelled, with the reason when
 * one was given, or the deadline passed.
 */
export function renderCancelledNotice(
  input: Common & { senderName: string; reason: string | null; expired?: boolean; cc?: boolean },
): RenderedEmail {
  const m = messages(input.language).email;
  const values = {
    document: displayValue(input.documentName, DOCUMENT_NAME_MAX),
    sender: displayValue(input.senderName),
  };
  // Expired: the deadline passed; no one chose it, so no reason is quoted.
  const notice = input.expired ? m.expiredNotice : m.cancelledNotice;
  const ccBody = input.expired ? m.ccNotice.expired : m.ccNotice.cancelled;
  return renderMessage({
    language: input.language,
    brand: input.brand,
    subject: format(notice.subject, values),
    greeting: format(m.greeting, { name: displayValue(input.recipientName) }),
    paragraphs: [format(input.cc ? ccBody : notice.body, values), m.nothingToDo],
    quote:
      input.reason && !input.expired
        ? { label: m.cancelledNotice.reason, text: input.reason }
        : undefined,
  });
}
