import type { RenderedEmail } from '../mail.service.js';
import { escapeHtml, htmlButton, htmlLayout } from './layout.js';

/** Languages invitation e-mails are written in. */
export type EmailLanguage = 'en' | 'de' | 'fr' | 'es' | 'nl';

type Words = {
  subject: (sender: string, document: string) => string;
  reminderSubject: (document: string) => string;
  greeting: (name: string) => string;
  body: (sender: string, document: string) => string;
  reminderBody: (document: string) => string;
  message: string;
  button: string;
  footer: string;
};

const words: Record<EmailLanguage, Words> = {
  en: {
    subject: (s, d) => `${s} asks you to sign "${d}"`,
    reminderSubject: (d) => `Reminder: please sign "${d}"`,
    greeting: (n) => `Hello ${n},`,
    body: (s, d) => `${s} has sent you the document "${d}" to sign electronically.`,
    reminderBody: (d) => `The document "${d}" is still waiting for your signature.`,
    message: 'Message from the sender:',
    button: 'Review and sign',
    footer: 'This link is personal: do not forward this e-mail.',
  },
  de: {
    subject: (s, d) => `${s} bittet Sie, „${d}“ zu unterschreiben`,
    reminderSubject: (d) => `Erinnerung: Bitte unterschreiben Sie „${d}“`,
    greeting: (n) => `Hallo ${n},`,
    body: (s, d) => `${s} hat Ihnen das Dokument „${d}“ zur elektronischen Unterschrift gesendet.`,
    reminderBody: (d) => `Das Dokument „${d}“ wartet noch auf Ihre Unterschrift.`,
    message: 'Nachricht des Absenders:',
    button: 'Prüfen und unterschreiben',
    footer: 'Dieser Link ist persönlich: Bitte leiten Sie diese E-Mail nicht weiter.',
  },
  fr: {
    subject: (s, d) => `${s} vous invite à signer « ${d} »`,
    reminderSubject: (d) => `Rappel : veuillez signer « ${d} »`,
    greeting: (n) => `Bonjour ${n},`,
    body: (s, d) => `${s} vous a envoyé le document « ${d} » à signer électroniquement.`,
    reminderBody: (d) => `Le document « ${d} » attend toujours votre signature.`,
    message: "Message de l'expéditeur :",
    button: 'Consulter et signer',
    footer: 'Ce lien est personnel : ne transférez pas cet e-mail.',
  },
  es: {
    subject: (s, d) => `${s} le pide que firme «${d}»`,
    reminderSubject: (d) => `Recordatorio: firme «${d}»`,
    greeting: (n) => `Hola ${n}:`,
    body: (s, d) => `${s} le ha enviado el documento «${d}» para que lo firme electrónicamente.`,
    reminderBody: (d) => `El documento «${d}» sigue esperando su firma.`,
    message: 'Mensaje del remitente:',
    button: 'Revisar y firmar',
    footer: 'Este enlace es personal: no reenvíe este correo.',
  },
  nl: {
    subject: (s, d) => `${s} vraagt u "${d}" te ondertekenen`,
    reminderSubject: (d) => `Herinnering: onderteken "${d}"`,
    greeting: (n) => `Hallo ${n},`,
    body: (s, d) => `${s} heeft u het document "${d}" gestuurd om elektronisch te ondertekenen.`,
    reminderBody: (d) => `Het document "${d}" wacht nog op uw handtekening.`,
    message: 'Bericht van de afzender:',
    button: 'Bekijken en ondertekenen',
    footer: 'Deze link is persoonlijk: stuur deze e-mail niet door.',
  },
};

/** The invitation (or reminder) to sign, in the tenant's language. */
export function renderInvitation(input: {
  language: EmailLanguage;
  signeeName: string;
  senderName: string;
  documentName: string;
  signingUrl: string;
  signingMessage: string | null;
  reminder?: boolean;
}): RenderedEmail {
  const w = words[input.language] ?? words.en;
  const subject = input.reminder
    ? w.reminderSubject(input.documentName)
    : w.subject(input.senderName, input.documentName);
  const intro = input.reminder
    ? w.reminderBody(input.documentName)
    : w.body(input.senderName, input.documentName);
  const message = input.signingMessage?.trim() || null;
  const text = [
    w.greeting(input.signeeName),
    '',
    intro,
    ...(message ? ['', w.message, message] : []),
    '',
    `${w.button}: ${input.signingUrl}`,
    '',
    w.footer,
    '',
  ].join('\n');
  const html = htmlLayout({
    lang: input.language,
    title: subject,
    body: [
      `<p>${escapeHtml(w.greeting(input.signeeName))}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      message
        ? `<p><strong>${escapeHtml(w.message)}</strong></p><blockquote style="border-left:3px solid #d1d5db;margin:0;padding-left:12px;white-space:pre-wrap">${escapeHtml(message)}</blockquote>`
        : '',
      htmlButton(input.signingUrl, w.button),
      `<p style="color:#6b7280;font-size:12px">${escapeHtml(w.footer)}</p>`,
    ].join(''),
  });
  return { subject, html, text };
}
