import { describe, expect, it } from 'vitest';
import { formatDateTime, LANGUAGES, messages } from '../../../i18n/index.js';
import {
  renderCancelledNotice,
  renderDeclined,
  renderDeclinedNotice,
  renderSignedCopy,
} from './after-signing.js';
import { renderInvitation } from './invitation.js';
import { renderVerificationCode } from './verification-code.js';

// Every e-mail a document sends, in each of the twelve languages: in its words, with its
// <html lang>, and right to left in Arabic (dir="rtl" and the text aligned right).
const brand = { name: 'Acme', color: '#0a7d38', logoUrl: 'https://acme.example/logo.png' };
const common = { recipientName: 'Zoë', documentName: 'Lease', brand };

function everyEmail(language: (typeof LANGUAGES)[number]) {
  return {
    invitation: renderInvitation({
      language,
      signeeName: 'Zoë',
      senderName: 'Olivia',
      documentName: 'Lease',
      signingUrl: 'https://signet.example/sign/sg_x',
      signingMessage: 'Hi',
      expiresAt: '2026-12-01T17:00:00Z',
      brand,
    }),
    reminder: renderInvitation({
      language,
      signeeName: 'Zoë',
      senderName: 'Olivia',
      documentName: 'Lease',
      signingUrl: 'https://signet.example/sign/sg_x',
      signingMessage: null,
      reminder: true,
      approval: true,
    }),
    signedCopy: renderSignedCopy({
      language,
      ...common,
      link: { url: 'https://signet.example/d', expiresAt: '2026-12-01T00:00:00Z', size: '30 MB' },
    }),
    declined: renderDeclined({
      language,
      ...common,
      signeeName: 'Bob',
      signeeEmail: 'bob@example.com',
      reason: 'No',
      documentUrl: 'https://signet.example/app',
    }),
    declinedNotice: renderDeclinedNotice({ language, ...common, signeeName: 'Bob', cc: true }),
    cancelled: renderCancelledNotice({ language, ...common, senderName: 'Olivia', reason: 'x' }),
    expired: renderCancelledNotice({
      language,
      ...common,
      senderName: 'Olivia',
      reason: null,
      expired: true,
    }),
    verificationCode: renderVerificationCode({
      language,
      signeeName: 'Zoë',
      documentName: 'Lease',
      code: '123456',
    }),
  };
}

describe('e-mails in twelve languages', () => {
  it.each(LANGUAGES)('writes every e-mail in %s', (language) => {
    const m = messages(language).email;
    const mails = everyEmail(language);
    const dir = language === 'ar' ? 'rtl' : 'ltr';
    for (const [kind, mail] of Object.entries(mails)) {
      expect(mail.html, kind).toContain(`<html lang="${language}" dir="${dir}">`);
      expect(mail.html, kind).toContain(`<body dir="${dir}"`);
      expect(mail.text, kind).toContain(m.greeting.replace('{name}', 'Zoë'));
    }
    expect(mails.invitation.text).toContain(m.invitation.button);
    expect(mails.reminder.subject).toBe(m.approval.reminderSubject.replace('{document}', 'Lease'));
    expect(mails.signedCopy.text).toContain(m.signedCopy.button);
    expect(mails.verificationCode.text).toContain('123456');
    // Times in the one rule (dates.ts): the invitation's deadline, the copy link's end.
    const deadline = formatDateTime('2026-12-01T17:00:00Z', language);
    expect(mails.invitation.text).toContain(m.invitation.deadline.replace('{time}', deadline));
    expect(mails.reminder.text).not.toContain(deadline);
    expect(mails.signedCopy.text).toContain(formatDateTime('2026-12-01T00:00:00Z', language));
  });

  it('writes the deadline and the link’s end in English and German as the rule says', () => {
    expect(everyEmail('en').invitation.text).toContain(
      'This request is open until 1 December 2026, 17:00:00 UTC.',
    );
    expect(everyEmail('de').invitation.text).toContain(
      'Die Anfrage gilt bis 1. Dezember 2026, 17:00:00 UTC.',
    );
    expect(everyEmail('de').signedCopy.text).toContain('bis 1. Dezember 2026, 00:00:00 UTC');
  });

  it('aligns Arabic right: the body, the quote and the brand header', () => {
    const mails = everyEmail('ar');
    for (const mail of Object.values(mails)) {
      expect(mail.html).toContain('style="direction:rtl;text-align:right;');
      expect(mail.html).not.toMatch(/text-align:left|border-left|padding-left/);
    }
    expect(mails.invitation.html).toContain('border-right:3px solid');
    expect(mails.invitation.html).toMatch(/<td style="vertical-align:middle;text-align:right/);
    expect(mails.signedCopy.text).toContain('1 ديسمبر 2026');
    // Left to right, nothing changes: no direction style, the rule on the left.
    const english = everyEmail('en').invitation.html;
    expect(english).not.toContain('direction:rtl');
    expect(english).toContain('border-left:3px solid');
  });
});
