import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRecordedPage, VIEWPORTS, type RecordedPage } from '../helpers/browser.js';
import { ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { makePdf } from '../helpers/pdf.js';
import { valuesByLabel, waitForStatus } from '../helpers/signing.js';
import type { SmtpSink } from '../helpers/smtp.js';
import {
  closeCleanPages,
  startSigningBrowser,
  type SigningBrowser,
} from '../helpers/signing-browser.js';

// A radio, a field its choice shows, a text checked as typed (the server's own re2js rules) and
// a number with bounds on the signing page, with the keyboard, at phone and desktop widths.

const unique = (label: string) => `${label}.${Math.random().toString(36).slice(2, 9)}@example.com`;
const at = (y: number, width = 220) => ({ page: 1, x: 72, y, width, height: 24 });

describe.each(ENGINES)('radio, conditional and validated fields in Chromium on %s', (engine) => {
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
  afterEach(() => closeCleanPages(opened.splice(0), ctx.baseUrl, []));

  // Creates and sends a one-signee document with `fields`; opens its signing page.
  async function openSigning(
    name: string,
    fields: unknown[],
    viewport: { width: number; height: number },
    language = 'en',
  ) {
    const signee = { email: unique('ada'), name: 'Ada Lovelace' };
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      file: makePdf({ pages: 1, title: 'Order form' }),
      signees: [signee],
      extra: { name, fields: JSON.stringify(fields) },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.document.id as string;
    // The language is a draft's setting (PATCH), not one of quick-create's form fields.
    await api(ctx, apiKey, 'PATCH', `/api/documents/${id}`, { emailLanguage: language });
    expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
      200,
    );
    const mail = await smtp.waitFor((m) => (m.to as { text: string }).text === signee.email);
    const link = /http:\/\/127\.0\.0\.1:\d+\/sign\/sg_[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0];
    const recorded = await openRecordedPage(browser, viewport);
    opened.push(recorded);
    await recorded.page.goto(link);
    await recorded.page.getByRole('heading', { level: 1, name }).waitFor();
    return { id, page: recorded.page };
  }

  it.each(Object.entries(VIEWPORTS))(
    'fills and signs them at %s width',
    async (_, viewport) => {
      const fields = [
        { signee: 0, type: 'signature', page: 1, x: 330, y: 700, width: 180, height: 48 },
        {
          signee: 0,
          type: 'radio',
          label: 'Plan',
          options: ['Basic', 'Pro'],
          required: true,
          ...at(100),
        },
        {
          signee: 0,
          type: 'text',
          label: 'Company',
          required: true,
          showIf: { field: 'Plan', equals: 'Pro' },
          ...at(150),
        },
        {
          signee: 0,
          type: 'text',
          label: 'Tax id',
          required: true,
          validation: { pattern: '[A-Z]{2}[0-9]{6}' },
          ...at(200),
        },
        { signee: 0, type: 'number', label: 'Seats', min: 1, max: 500, ...at(250, 100) },
      ];
      const { id, page } = await openSigning(`Order form ${engine}`, fields, viewport);

      const plan = page.getByRole('radiogroup', { name: 'Plan' });
      const company = page.getByRole('textbox', { name: 'Company' });
      const taxId = page.getByRole('textbox', { name: 'Tax id' });
      const seats = page.getByRole('spinbutton', { name: 'Seats' });
      const signButton = page.getByRole('button', { name: 'Sign document', exact: true });
      await plan.waitFor();
      // Company shows only once Plan is Pro.
      expect(await company.count()).toBe(0);

      // The radio group with the keyboard: focus the first option, an arrow moves and chooses.
      await plan.getByRole('radio', { name: 'Basic' }).focus();
      await page.keyboard.press('Space');
      expect(await plan.getByRole('radio', { name: 'Basic' }).isChecked()).toBe(true);
      await page.keyboard.press('ArrowRight');
      expect(await plan.getByRole('radio', { name: 'Pro' }).isChecked()).toBe(true);
      await company.waitFor();
      await company.focus();
      await page.keyboard.type('Analytical Engines');

      // The tax id is checked as it is typed, by the pattern, and told beside the field.
      await taxId.focus();
      await page.keyboard.type('GB12');
      await expect.poll(() => taxId.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('.field-problem').innerText()).toBe(
        'Tax id: does not have the required form',
      );
      await page.keyboard.type('3456');
      await expect.poll(() => taxId.getAttribute('aria-invalid')).toBe(null);

      // The number's bounds: 600 is refused as typed, 12 taken.
      await seats.focus();
      await page.keyboard.type('600');
      await expect.poll(() => seats.getAttribute('aria-invalid')).toBe('true');
      await page.locator('.pdf-page[data-page-number="1"]').screenshot({
        path: `test-results/screenshots/signing-field-rules-${engine}-${viewport.width}-invalid.png`,
      });
      expect(await page.locator('.field-problem').innerText()).toBe('Seats: must be at most 500');
      await seats.fill('12');
      await expect.poll(() => seats.getAttribute('aria-invalid')).toBe(null);

      // Back to Basic hides Company again; Pro shows it with what was typed.
      await plan.getByRole('radio', { name: 'Basic' }).check();
      await expect.poll(() => company.count()).toBe(0);
      await plan.getByRole('radio', { name: 'Pro' }).check();
      await expect.poll(() => company.inputValue()).toBe('Analytical Engines');

      await page.getByRole('button', { name: /^Signature(: .*)?$/ }).click();
      await page.keyboard.type('Ada Lovelace');
      await page.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
      await expect.poll(() => signButton.isDisabled()).toBe(false);
      await page.locator('.pdf-page[data-page-number="1"]').screenshot({
        path: `test-results/screenshots/signing-field-rules-${engine}-${viewport.width}.png`,
      });
      await signButton.click();
      await page.getByRole('heading', { name: /You have signed/ }).waitFor();

      const done = await waitForStatus(ctx, apiKey, id, 'signed');
      const values = valuesByLabel(done.fields);
      expect(values).toMatchObject({
        Plan: 'Pro',
        Company: 'Analytical Engines',
        'Tax id': 'GB123456',
        Seats: '12',
      });
    },
    120_000,
  );

  it("says a broken rule in the document's language", async () => {
    const fields = [
      { signee: 0, type: 'signature', page: 1, x: 330, y: 700, width: 180, height: 48 },
      { signee: 0, type: 'number', label: 'Plätze', min: 1, max: 500, ...at(250, 100) },
      { signee: 0, type: 'text', label: 'Telefon', validation: { format: 'phone' }, ...at(300) },
    ];
    const { page } = await openSigning(`Bestellung ${engine}`, fields, VIEWPORTS.desktop, 'de');
    await page.getByRole('spinbutton', { name: 'Plätze' }).fill('600');
    await expect
      .poll(() => page.locator('.field-problem').innerText())
      .toBe('Plätze: darf höchstens 500 sein');
    await page.getByRole('spinbutton', { name: 'Plätze' }).fill('12');
    await page.getByRole('textbox', { name: 'Telefon' }).fill('12');
    await expect
      .poll(() => page.locator('.field-problem').innerText())
      .toBe(
        'Telefon: muss eine Telefonnummer sein (Ziffern, Leerzeichen, + - . ( ); 5 bis 20 Ziffern)',
      );
  }, 60_000);
});
