import type { EmailBrand } from './brand-layout.js';
import { format, messages, type Language } from '../../../i18n/index.js';
import type { RenderedEmail } from '../mail.service.js';
import { renderMessage } from './message.js';
import { DOCUMENT_NAME_MAX, displayValue } from './untrusted.js';

/**
 * The 6-digit code that opens a signee's link (auth `email_otp`), in the signee's language. The
 * outbox keeps the code only until it is delivered (mail.service.ts redacts it then).
 */
export function renderVerificationCode(input: {
  language: Language;
  signeeName: string;
  documentName: string;
  code: string;
  /** The document's tenant's brand (decisions §13). */
  brand?: EmailBrand | null;
}): RenderedEmail {
  const m = messages(input.language).email;
  const document = displayValue(input.documentName, DOCUMENT_NAME_MAX);
  return renderMessage({
    language: input.language,
    subject: format(m.verificationCode.subject, { document }),
    greeting: format(m.greeting, { name: displayValue(input.signeeName) }),
    paragraphs: [format(m.verificationCode.body, { document }), input.code],
    footer: m.verificationCode.expires,
    brand: input.brand,
  });
}
