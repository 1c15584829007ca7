import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  openRecordedPage,
  screenshotBothWidths,
  VIEWPORTS,
  type RecordedPage,
} from '../helpers/browser.js';
import { createTestContext, ENGINES, findFreePort, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { waitForStatus } from '../helpers/signing.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';

describe.each(ENGINES)('the signing page in the document language, Chromium on %s', (engine) => {
  let smtp: SmtpSink;
  let ctx: TestContext;
  let browser: Browser;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  const opened: RecordedPage[] = [];

  beforeAll(async () => {
    smtp = await startSmtpSink();
    const port = await findFreePort();
    ctx = await createTestContext(engine, {
      listen: true,
      env: { SMTP_URL: smtp.url, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
    owner = await createUser(ctx, { name: 'Olivia Owner' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
    await smtp?.close();
  });
  afterEach(async () => {
    const pages = opened.splice(0);
    await Promise.all(pages.map((p) => p.close()));
    for (const { problems } of pages) {
      const expected = /^console: Failed to load resource: .* (404|410) .*@ .*\/api\/signing\//;
      expect(problems.filter((p) => !expected.test(p))).toEqual([]);
    }
  });

  async function sendIn(language: string, email: string, name: string) {
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email, name }],
      extra: { name: `Vertrag ${language}`, signingMessage: 'Merci / Danke' },
    });
    const id = created.body.document.id as string;
    await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${id}`, { emailLanguage: language });
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const mail = await smtp.waitFor((m) => (m.to as { text: string }).text === email);
    const link = /http:\/\/\S+\/sign\/sg_[\w-]+/.exec(mail.text ?? '')![0];
    const recorded = await openRecordedPage(browser, VIEWPORTS.phone);
    opened.push(recorded);
    await recorded.page.goto(link);
    return { id, page: recorded.page };
  }

  it('speaks German from the first word to “Sie haben … unterschrieben”', async () => {
    const email = `dora.${engine}@example.com`;
    const { id, page } = await sendIn('de', email, 'Dora Deutsch');
    await page.getByRole('heading', { level: 1, name: 'Vertrag de' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.getByText('Unterschrift erbeten').waitFor();
    expect(await page.locator('.lede').textContent()).toContain('Olivia Owner bittet Dora Deutsch');
    // Every check speaks German too.
    await page.getByRole('button', { name: 'Dokument unterschreiben' }).click();
    await page.getByText('Geben Sie zum Unterschreiben Ihren vollständigen Namen ein.').waitFor();
    await page.getByText('Kreuzen Sie dieses Feld an').waitFor();
    await page.getByLabel('Geben Sie Ihren vollständigen Namen ein').fill('Dora Deutsch');
    await page.getByLabel(/Ich bin einverstanden, elektronisch zu unterschreiben/).check();
    await screenshotBothWidths(page, 'signing-de');
    await page.getByRole('button', { name: 'Dokument unterschreiben' }).click();
    await page.getByRole('heading', { name: 'Sie haben „Vertrag de“ unterschrieben' }).waitFor();
    await page.getByText(/erhalten Sie das unterschriebene PDF per E-Mail/).waitFor();
    const body = (await page.locator('main').textContent()) ?? '';
    for (const english of ['Sign document', 'Decline', 'Signature requested', 'You have signed']) {
      expect(body).not.toContain(english);
    }
    await waitForStatus(ctx, owner.apiKey, id, 'signed', 30_000);
  });

  it('declines in French, with French messages and the reason kept', async () => {
    const email = `felix.${engine}@example.com`;
    const { id, page } = await sendIn('fr', email, 'Félix Français');
    await page.getByText('Signature demandée').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.getByRole('button', { name: 'Refuser' }).click();
    await page.getByRole('button', { name: 'Confirmer le refus' }).click();
    await page.getByText('Indiquez brièvement un motif').waitFor();
    await page.getByLabel('Motif').fill('Le montant est faux.');
    await page.getByRole('button', { name: 'Confirmer le refus' }).click();
    await page
      .getByRole('heading', { name: 'Vous avez refusé de signer « Vertrag fr »' })
      .waitFor();
    await screenshotBothWidths(page, 'signing-fr-declined');
    const doc = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body;
    expect(doc.document.status).toBe('declined');
    expect(doc.signees[0].declineReason).toBe('Le montant est faux.');
    // The link opened again says, in French, what became of the document.
    await page.reload();
    await page.getByRole('heading', { name: '« Vertrag fr » a été refusé' }).waitFor();
    await page.getByText('Vous avez refusé de signer : la signature est donc terminée').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
  });
});
