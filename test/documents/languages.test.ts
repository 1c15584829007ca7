import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';

// The seven languages added to the first five (decisions §16), wherever a language is taken:
// tenant settings, a document, a template and a template's signee; and their invitations,
// Arabic right to left, through a real SMTP sink.
const NEW_LANGUAGES = ['pt', 'it', 'pl', 'ja', 'zh', 'ko', 'ar'] as const;

const INVITATIONS: Record<(typeof NEW_LANGUAGES)[number], [string, string]> = {
  pt: ['Assinatura solicitada', 'Revisar e assinar'],
  it: ['Firma richiesta', 'Esamina e firma'],
  pl: ['Prośba o podpis', 'Przejrzyj i podpisz'],
  ja: ['署名のお願い', '確認して署名'],
  zh: ['请求签署', '查看并签署'],
  ko: ['서명 요청', '검토하고 서명하기'],
  ar: ['طلب توقيع', 'المراجعة والتوقيع'],
};

describe.each(ENGINES)('twelve languages on %s', (engine) => {
  let ctx: TestContext;
  let smtp: SmtpSink;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    ctx = await createTestContext(engine, { listen: true, env: { SMTP_URL: smtp.url } });
    apiKey = (await createUser(ctx, { name: 'Olivia Owner' })).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  const call = (method: string, path: string, body?: unknown) =>
    api(ctx, apiKey, method, path, body);
  const paths = (res: { body: { errors?: Array<{ path: string }> } }) =>
    (res.body.errors ?? []).map((e) => e.path);
  const unique = (label: string) => `${label}.${Math.random().toString(36).slice(2)}@example.com`;

  it.each(NEW_LANGUAGES)(
    'takes %s for the tenant, a document, a template and a template signee',
    async (language) => {
      const settings = await call('PATCH', `/api/tenants/${tenantId}/settings`, {
        emailLanguage: language,
      });
      expect(settings.status).toBe(200);
      expect(settings.body.settings.emailLanguage).toBe(language);
      // A new document takes the tenant's language, and a draft's can be changed.
      const doc = await quickCreate(ctx, apiKey, { tenantId });
      expect(doc.body.document.emailLanguage).toBe(language);
      const edited = await call('PATCH', `/api/documents/${doc.body.document.id}`, {
        emailLanguage: language === 'ar' ? 'ja' : 'ar',
      });
      expect(edited.status).toBe(200);
      expect(edited.body.document.emailLanguage).toBe(language === 'ar' ? 'ja' : 'ar');

      const made = await createTemplate(ctx, apiKey, { tenantId, fields: signatureFields(2) });
      expect(made.body.template.emailLanguage).toBe(language);
      const template = await call('PATCH', `/api/templates/${made.body.template.id}`, {
        emailLanguage: language,
      });
      expect(template.status).toBe(200);
      expect(template.body.template.emailLanguage).toBe(language);
      const fromTemplate = await call('POST', `/api/templates/${made.body.template.id}/documents`, {
        signees: [
          { role: 0, email: unique('tia'), name: 'Tia', language },
          { role: 1, email: unique('lou'), name: 'Lou' },
        ],
      });
      expect(fromTemplate.status).toBe(201);
      expect(fromTemplate.body.document.emailLanguage).toBe(language);
      expect(fromTemplate.body.signees[0].language).toBe(language);
    },
  );

  it('refuses an unknown language with a 422 naming its path, changing nothing', async () => {
    await call('PATCH', `/api/tenants/${tenantId}/settings`, { emailLanguage: 'de' });
    const settings = await call('PATCH', `/api/tenants/${tenantId}/settings`, {
      emailLanguage: 'xx',
    });
    expect(settings.status).toBe(422);
    expect(settings.headers.get('content-type')).toContain('application/problem+json');
    expect(paths(settings)).toEqual(['body.emailLanguage']);
    const after = await call('GET', `/api/tenants/${tenantId}/settings`);
    expect(after.body.settings.emailLanguage).toBe('de');

    const doc = await quickCreate(ctx, apiKey, { tenantId });
    const edited = await call('PATCH', `/api/documents/${doc.body.document.id}`, {
      emailLanguage: 'xx',
    });
    expect(edited.status).toBe(422);
    expect(paths(edited)).toEqual(['body.emailLanguage']);

    const made = await createTemplate(ctx, apiKey, { tenantId, fields: signatureFields(2) });
    const id = made.body.template.id as string;
    const template = await call('PATCH', `/api/templates/${id}`, { emailLanguage: 'xx' });
    expect(template.status).toBe(422);
    expect(paths(template)).toEqual(['body.emailLanguage']);
    const fromTemplate = await call('POST', `/api/templates/${id}/documents`, {
      signees: [
        { role: 0, email: unique('tia'), name: 'Tia', language: 'xx' },
        { role: 1, email: unique('lou'), name: 'Lou', language: 'ar' },
      ],
    });
    expect(fromTemplate.status).toBe(422);
    expect(paths(fromTemplate)).toEqual(['body.signees.0.language']);
    const unchanged = await call('GET', `/api/documents/${doc.body.document.id}`);
    expect(unchanged.body.document.emailLanguage).toBe('de');
  });

  async function invite(language: string, message: string) {
    const to = unique(language);
    const doc = await quickCreate(ctx, apiKey, {
      tenantId,
      signees: [{ email: to, name: 'Zoë Ünal' }],
      extra: { name: `Contract ${language}`, signingMessage: message },
    });
    const id = doc.body.document.id as string;
    await call('PATCH', `/api/documents/${id}`, { emailLanguage: language });
    expect((await call('POST', `/api/documents/${id}/send-for-signing`)).status).toBe(200);
    return smtp.waitFor((m) => (m.to as { text: string }).text === to);
  }

  it('e-mails an Arabic invitation right to left, in Arabic', async () => {
    const mail = await invite('ar', 'يرجى التوقيع اليوم');
    expect(mail.subject).toBe('طلب توقيع: «Contract ar»');
    expect(mail.html).toMatch(/<html lang="ar" dir="rtl">/);
    expect(mail.html).toMatch(/<body dir="rtl" style="direction:rtl;text-align:right;/);
    // The quoted message's rule stands at the right, where Arabic lines start.
    expect(mail.html).toContain('border-right:3px solid');
    expect(mail.html).not.toContain('border-left');
    expect(mail.html).toContain('المراجعة والتوقيع');
    expect(mail.text).toContain('مرحبًا Zoë Ünal،');
    expect(mail.text).toContain('يُطلب منك توقيع المستند «Contract ar» إلكترونيًا');
    expect(mail.text).toContain('يرجى التوقيع اليوم');
    expect(mail.text).toMatch(/المراجعة والتوقيع: http:\/\/\S+\/sign\/sg_/);
    expect(mail.text).not.toMatch(/Review and sign|Hello/);
  });

  it.each(NEW_LANGUAGES.filter((l) => l !== 'ar'))(
    'e-mails a %s invitation left to right, in its language',
    async (language) => {
      const [subject, button] = INVITATIONS[language];
      const mail = await invite(language, `Message ${language}`);
      expect(mail.subject).toContain(subject);
      expect(mail.subject).toContain(`Contract ${language}`);
      expect(mail.text).toContain(button);
      expect(mail.text).toContain(`Message ${language}`);
      expect(mail.html).toContain(`<html lang="${language}" dir="ltr">`);
      expect(mail.html).toContain('border-left:3px solid');
    },
  );
});
