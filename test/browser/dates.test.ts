import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openRecordedPage,
  screenshotBothWidths,
  VIEWPORTS,
  waitForVisiblePagesDrawn,
  type RecordedPage,
} from '../helpers/browser.js';
import { ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { downloadFile, signingCall, waitForStatus } from '../helpers/signing.js';
import type { SmtpSink } from '../helpers/smtp.js';
import { startSigningBrowser, type SigningBrowser } from '../helpers/signing-browser.js';

// One rule for dates and times (docs/signing.md, "Dates and times"), seen where a person reads
// them: the signing page's date field, the invitation's deadline, the sealed PDF's date field and
// certificate, and the dashboard (English, in the reader's time zone, named).

const DEADLINE = '2031-03-14T16:30:00.000Z';
const MONTHS = {
  en: 'January|February|March|April|May|June|July|August|September|October|November|December',
  de: 'Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember',
};
const EXPECTED = {
  en: {
    deadline: 'This request is open until 14 March 2031, 16:30:00 UTC.',
    date: new RegExp(`^\\d{1,2} (${MONTHS.en}) \\d{4}$`),
    time: new RegExp(`\\d{1,2} (${MONTHS.en}) \\d{4}, \\d{2}:\\d{2}:\\d{2} UTC`),
  },
  de: {
    deadline: 'Die Anfrage gilt bis 14. März 2031, 16:30:00 UTC.',
    date: new RegExp(`^\\d{1,2}\\. (${MONTHS.de}) \\d{4}$`),
    time: new RegExp(`\\d{1,2}\\. (${MONTHS.de}) \\d{4}, \\d{2}:\\d{2}:\\d{2} UTC`),
  },
};
const BOX = {
  date: { page: 1, x: 72, y: 680, width: 160, height: 20 },
  signature: { page: 1, x: 330, y: 650, width: 180, height: 48 },
};
// The login page asks who is logged in before anyone is.
const PROVOKED = /^console: Failed to load resource: .* status of 401 .* @ \S+\/api\/auth\/me$/;

describe.each(ENGINES)('one date and time rule, Chromium on %s', (engine) => {
  let smtp: SmtpSink;
  let ctx: TestContext;
  let browser: Browser;
  let setup: SigningBrowser | undefined;

  beforeAll(async () => {
    setup = await startSigningBrowser(engine);
    ({ smtp, ctx, browser } = setup);
  });
  afterAll(() => setup?.close());

  /** Closes a page, expecting no request elsewhere and no problem but the provoked ones. */
  async function closeClean(recorded: RecordedPage) {
    await recorded.close();
    const origin = new URL(ctx.baseUrl).origin;
    expect(recorded.requests.filter((u) => new URL(u).origin !== origin)).toEqual([]);
    expect(recorded.problems.filter((p) => !PROVOKED.test(p))).toEqual([]);
  }

  it.each(['en', 'de'] as const)(
    'writes dates in %s alike on the page, in the e-mail and on the certificate',
    async (language) => {
      const owner = await createUser(ctx, { name: 'Olivia Owner' });
      const tenant = await createTenant(ctx, owner.apiKey, 'Dates Co');
      const email = `dana.${language}.${Math.random().toString(36).slice(2, 9)}@example.com`;
      const created = await quickCreate(ctx, owner.apiKey, {
        tenantId: tenant.id,
        file: makePdf({ pages: 1, title: 'Lease' }),
        signees: [{ email, name: 'Dana Datum' }],
        extra: {
          name: `Lease ${language}`,
          expiresAt: DEADLINE,
          fields: JSON.stringify([
            { signee: 0, type: 'date', ...BOX.date },
            { signee: 0, type: 'signature', ...BOX.signature },
          ]),
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.document.id as string;
      const patched = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${id}`, {
        emailLanguage: language,
      });
      expect(patched.status).toBe(200);
      const sent = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
      expect(sent.status).toBe(200);
      // The API keeps ISO 8601.
      expect(sent.body.document.expiresAt).toBe(DEADLINE);

      // The e-mail (through a real SMTP listener): the deadline by the rule, text and HTML.
      const mail = await smtp.waitFor((m) => (m.to as { text: string }).text === email);
      expect(mail.text).toContain(EXPECTED[language].deadline);
      expect(mail.html).toContain(EXPECTED[language].deadline);
      const link = /http:\/\/127\.0\.0\.1:\d+\/sign\/sg_[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0];

      // The page: the date field shows the signing date (today, in UTC) by the rule.
      const recorded = await openRecordedPage(browser, VIEWPORTS.phone);
      const { page } = recorded;
      await page.goto(link);
      await page.getByRole('heading', { level: 1, name: `Lease ${language}` }).waitFor();
      const shown = await dateFieldText(page);
      expect(shown).toMatch(EXPECTED[language].date);
      const today = new Date().toISOString().slice(0, 10);
      expect(shown).toBe(
        new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'de', {
          dateStyle: 'long',
          timeZone: 'UTC',
        }).format(new Date(`${today}T00:00:00Z`)),
      );
      await screenshotBothWidths(page, `dates-${engine}-${language}-page`);
      await waitForVisiblePagesDrawn(page);
      await page.locator('.pdf-page[data-page-number="1"]').screenshot({
        path: `test-results/screenshots/dates-${engine}-${language}-field-375.png`,
      });
      await closeClean(recorded);

      // Signed; the sealed PDF draws that same date in the field, and the certificate's times
      // follow the rule, the signing's on that same day.
      const token = link.split('/sign/')[1];
      const signed = await signingCall(ctx, token, 'sign', {
        consent: true,
        signature: { type: 'typed', text: 'Dana Datum' },
      });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      const done = await waitForStatus(ctx, owner.apiKey, id, 'signed');
      const sealed = await downloadFile(ctx, done.document.downloadUrl as string);
      const [page1, certificate] = pdfTexts(sealed, `dates-${engine}-${language}`);
      expect(page1).toContain(shown);
      expect(certificate).toMatch(EXPECTED[language].time);
      expect(certificate).toContain(`${shown}, `);
      expect(certificate).not.toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);

      // The dashboard speaks English, in the reader's time zone, named (Berlin: CET in March).
      const dashboard = await openDashboard(browser, ctx, owner, 'Europe/Berlin');
      await dashboard.page.goto(`${ctx.baseUrl}/app/documents/${id}`);
      await dashboard.page.getByRole('heading', { level: 1, name: `Lease ${language}` }).waitFor();
      expect(await dashboard.page.getByTestId('expiry').innerText()).toBe(
        'Expires 14 March 2031, 17:30:00 CET',
      );
      const times = await dashboard.page.locator('main time').allInnerTexts();
      expect(times.length).toBeGreaterThan(2);
      for (const time of times) {
        expect(time).toMatch(
          new RegExp(`^\\d{1,2} (${MONTHS.en}) \\d{4}, \\d{2}:\\d{2}:\\d{2} (CET|CEST)$`),
        );
      }
      await screenshotDashboard(dashboard.page, `dates-${engine}-${language}-dashboard`);
      await closeClean(dashboard);
    },
    180_000,
  );
});

/** The text a date field shows, without its words for screen readers. */
function dateFieldText(page: Page): Promise<string> {
  return page.locator('[data-field-type="date"]').evaluate((field) =>
    [...field.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent)
      .join('')
      .trim(),
  );
}

/** The sealed PDF's first page and all its pages, as pdftotext reads them. */
function pdfTexts(sealed: Buffer, name: string): [string, string] {
  const scratch = mkdtempSync(path.join(tmpdir(), 'signet-dates-'));
  try {
    const file = path.join(scratch, 'sealed.pdf');
    writeFileSync(file, sealed);
    const text = (...range: string[]) =>
      spawnSync('pdftotext', [...range, file, '-'], { encoding: 'utf8' }).stdout;
    // The certificate, looked at: rendered beside the screenshots.
    const shots = path.resolve('test-results/screenshots');
    mkdirSync(shots, { recursive: true });
    spawnSync('pdftoppm', ['-png', '-r', '60', file, path.join(shots, name)]);
    return [text('-f', '1', '-l', '1'), text()];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A desktop page in a time zone of its own, logged in through the login form. */
async function openDashboard(
  browser: Browser,
  ctx: TestContext,
  user: { email: string; password: string },
  timezoneId: string,
): Promise<RecordedPage> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, timezoneId });
  const page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(`${ctx.baseUrl}/login`);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  return { page, context, requests, problems, close: () => context.close() };
}

/** The dashboard page at phone and desktop width. */
async function screenshotDashboard(page: Page, name: string): Promise<void> {
  const dir = path.resolve('test-results/screenshots');
  mkdirSync(dir, { recursive: true });
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(100);
    await page.screenshot({ path: path.join(dir, `${name}-${size.width}.png`), fullPage: true });
  }
}
