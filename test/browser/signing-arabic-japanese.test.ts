import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  openRecordedPage,
  screenshotBothWidths,
  VIEWPORTS,
  type RecordedPage,
} from '../helpers/browser.js';
import { ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { makePdf } from '../helpers/pdf.js';
import { waitForStatus } from '../helpers/signing.js';
import type { SmtpSink } from '../helpers/smtp.js';
import {
  closeCleanPages,
  startSigningBrowser,
  type SigningBrowser,
} from '../helpers/signing-browser.js';

// The signing page in Arabic (right to left: <html dir="rtl">, the layout mirrored) and in
// Japanese, in Chromium, from the e-mailed link to "signed"; screenshots at 375 and 1440 px in
// test-results/screenshots/signing-{ar,ja}-*.png.
describe.each(ENGINES)('the signing page in Arabic and Japanese, Chromium on %s', (engine) => {
  let smtp: SmtpSink;
  let ctx: TestContext;
  let browser: Browser;
  let apiKey: string;
  let tenantId: string;
  let setup: SigningBrowser | undefined;
  const opened: RecordedPage[] = [];

  beforeAll(async () => {
    setup = await startSigningBrowser(engine);
    ({ smtp, ctx, browser, apiKey, tenantId } = setup);
  });
  afterAll(() => setup?.close());
  // (The API's own 401 while a link waits for its code.)
  afterEach(() => closeCleanPages(opened.splice(0), ctx.baseUrl, [401]));

  async function sendIn(
    language: string,
    title: string,
    email: string,
    name: string,
    auth: object = {},
  ) {
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      file: makePdf({ pages: 2, title: `Contract ${language}` }),
      signees: [{ email, name, ...auth }],
      extra: {
        name: title,
        signingMessage: language === 'ar' ? 'شكرًا لك' : 'よろしくお願いします',
      },
    });
    const id = created.body.document.id as string;
    await api(ctx, apiKey, 'PATCH', `/api/documents/${id}`, { emailLanguage: language });
    await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const mail = await smtp.waitFor((m) => (m.to as { text: string }).text === email);
    const link = /http:\/\/\S+\/sign\/sg_[\w-]+/.exec(mail.text ?? '')![0];
    const recorded = await openRecordedPage(browser, VIEWPORTS.desktop);
    opened.push(recorded);
    await recorded.page.goto(link);
    return { id, page: recorded.page };
  }

  const html = (page: Page) =>
    page.evaluate(() => ({
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
    }));

  it('lays out and speaks Arabic right to left, up to “وقّعت …”', async () => {
    const title = `عقد الإيجار ${engine}`;
    const { id, page } = await sendIn('ar', title, `amal.${engine}@example.com`, 'أمل حداد');
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await html(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    await page.getByText('طلب توقيع', { exact: true }).waitFor();
    expect(await page.locator('.lede').textContent()).toContain('يطلب Olivia Owner من أمل حداد');
    const sign = page.getByRole('button', { name: 'توقيع المستند' });
    await sign.waitFor();
    // Mirrored at 1440 px: the document on the right, the signing panel on its left; the
    // title starts at the right edge of its column.
    const documentBox = (await page.locator('.pdf-page').first().boundingBox())!;
    const panelBox = (await page.locator('#signing').boundingBox())!;
    expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(documentBox.x + 1);
    const direction = await page
      .locator('.document-title')
      .evaluate((el) => [getComputedStyle(el).direction, getComputedStyle(el).textAlign]);
    expect(direction[0]).toBe('rtl');
    // The document itself is never mirrored: its canvas draws text left to right.
    const canvas = page.locator('.pdf-canvas').first();
    expect(await canvas.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
    // Every check speaks Arabic.
    await sign.click();
    await page.getByText('اكتب اسمك الكامل للتوقيع.').waitFor();
    await page.getByLabel('اكتب اسمك الكامل').fill('أمل حداد');
    await page.getByLabel(/أوافق على التوقيع إلكترونيًا/).check();
    await screenshotBothWidths(page, `signing-ar-${engine}`);
    await sign.click();
    await page.getByRole('heading', { name: `وقّعت «${title}»` }).waitFor();
    const body = (await page.locator('main').textContent()) ?? '';
    for (const english of ['Sign document', 'Decline', 'Signature requested', 'You have signed']) {
      expect(body).not.toContain(english);
    }
    await screenshotBothWidths(page, `signing-ar-${engine}-signed`);
    await waitForStatus(ctx, apiKey, id, 'signed', 30_000);
  });

  it('speaks Japanese left to right, up to “署名しました”', async () => {
    const title = `業務委託契約書 ${engine}`;
    const { id, page } = await sendIn('ja', title, `sakura.${engine}@example.com`, '山田 さくら');
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await html(page)).toEqual({ lang: 'ja', dir: 'ltr' });
    await page.getByText('署名のお願い', { exact: true }).waitFor();
    expect(await page.locator('.lede').textContent()).toContain('Olivia Owner が 山田 さくら(');
    const sign = page.getByRole('button', { name: '文書に署名' });
    await sign.waitFor();
    await page.getByRole('button', { name: '辞退' }).waitFor();
    const documentBox = (await page.locator('.pdf-page').first().boundingBox())!;
    const panelBox = (await page.locator('#signing').boundingBox())!;
    expect(panelBox.x).toBeGreaterThanOrEqual(documentBox.x + documentBox.width - 1);
    await sign.click();
    await page.getByText('署名するには氏名を入力してください。').waitFor();
    await page.getByLabel('氏名を入力してください').fill('山田 さくら');
    await page.getByLabel(/電子署名に同意し/).check();
    await screenshotBothWidths(page, `signing-ja-${engine}`);
    await sign.click();
    await page.getByRole('heading', { name: `「${title}」に署名しました` }).waitFor();
    await waitForStatus(ctx, apiKey, id, 'signed', 30_000);
  });

  it('asks for an access code in Arabic, right to left, before the document', async () => {
    const title = `اتفاقية سرية ${engine}`;
    const { page } = await sendIn('ar', title, `rami.${engine}@example.com`, 'رامي خوري', {
      auth: 'access_code',
      accessCode: 'Cedar-4471',
    });
    await page.getByRole('heading', { level: 1, name: 'أكّد هويتك' }).waitFor();
    expect(await html(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    await page.getByLabel('رمز الدخول').fill('Cedar-0000');
    const open = page.getByRole('button', { name: 'فتح المستند' });
    await open.click();
    await page.getByRole('alert').getByText('هذا الرمز غير صحيح. المحاولات المتبقية: 4.').waitFor();
    await screenshotBothWidths(page, `signing-ar-${engine}-code`);
    await page.getByLabel('رمز الدخول').fill('Cedar-4471');
    await open.click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('button', { name: 'توقيع المستند' }).waitFor();
  });
});
