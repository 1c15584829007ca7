import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { ParsedMail } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRecordedPage, VIEWPORTS, type RecordedPage } from '../helpers/browser.js';
import { ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { makePdf } from '../helpers/pdf.js';
import type { SmtpSink } from '../helpers/smtp.js';
import {
  closeCleanPages,
  startSigningBrowser,
  type SigningBrowser,
} from '../helpers/signing-browser.js';
import { mailedCode } from '../helpers/verification.js';

const unique = (label: string) =>
  `${label}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
const recipient = (m: ParsedMail) => (m.to as { text: string }).text;
const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

/** Saves the page at phone width, whole, and checks nothing runs off its side. */
async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
}

// The signing page of a link that asks for a code (decisions §13), driven in Chromium: the
// access code, the e-mailed code read from a real SMTP listener, the lockout, an identity token
// in the URL. Run `npm run build:web` first.
describe.each(ENGINES)('signer verification in Chromium on %s', (engine) => {
  let smtp: SmtpSink;
  let ctx: TestContext;
  let browser: Browser;
  let apiKey: string;
  let tenantId: string;
  const opened: RecordedPage[] = [];

  let setup: SigningBrowser | undefined;

  beforeAll(async () => {
    setup = await startSigningBrowser(engine);
    ({ smtp, ctx, browser, apiKey, tenantId } = setup);
  });

  afterAll(() => setup?.close());

  // Only this service was asked for anything; the refusals the page shows (401, 429) are the
  // only failed loads, with one more below.
  // (401 while a link waits for its code, 429 after too many, 410 once signing closed it.)
  afterEach(() => closeCleanPages(opened.splice(0), ctx.baseUrl, [401, 429, 410]));

  async function sent(
    name: string,
    signee: { email: string; name: string; auth?: string; accessCode?: string },
    language?: string,
  ) {
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      file: makePdf({ pages: 1, title: name }),
      signees: [signee],
      extra: { name },
    });
    expect(created.status).toBe(201);
    const id = created.body.document.id as string;
    if (language) {
      await api(ctx, apiKey, 'PATCH', `/api/documents/${id}`, { emailLanguage: language });
    }
    expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
      200,
    );
    const mail = await smtp.waitFor(
      (m) => recipient(m) === signee.email && /\/sign\//.test(m.text ?? ''),
    );
    const link = /https?:\/\/\S+\/sign\/sg_[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0];
    return { id, link, signeeId: created.body.signees[0].id as string };
  }

  async function open(url: string) {
    const recorded = await openRecordedPage(browser, VIEWPORTS.phone);
    opened.push(recorded);
    expect((await recorded.page.goto(url))?.status()).toBe(200);
    return recorded.page;
  }

  it('asks for the access code, says how many tries are left, then shows and signs', async () => {
    const title = `Share purchase ${engine}`;
    const signee = {
      email: unique('ada'),
      name: 'Ada Quill',
      auth: 'access_code',
      accessCode: 'Willow-8812',
    };
    const { link } = await sent(title, signee);
    const page = await open(link);
    await page.getByRole('heading', { level: 1, name: 'Confirm it is you' }).waitFor();
    const before = await page.locator('main').innerText();
    expect(before).not.toContain(title);
    expect(before).not.toContain('Ada Quill');

    const input = page.getByLabel('Access code');
    await input.fill('willow-8812');
    await page.getByRole('button', { name: 'Open the document' }).click();
    await page.getByRole('alert').getByText('That code is not right. Attempts left: 4.').waitFor();
    // Focus moves to the message, so a screen reader reads it.
    await page.waitForFunction(() => document.activeElement?.classList.contains('form-error'));
    await shoot(page, `verification-${engine}-access-code-wrong`);

    await input.fill('Willow-8812');
    await page.getByRole('button', { name: 'Open the document' }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.locator('.intro').innerText()).toContain('Ada Quill');
    // Reloaded within the hour, the page opens without asking again.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('textbox', { name: 'Type your full name' }).fill('Ada Quill');
    await page.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
    await page.getByRole('button', { name: 'Sign document', exact: true }).click();
    await page.getByRole('heading', { name: /You have signed/ }).waitFor();
  });

  it('sends a code by e-mail on request and opens with it', async () => {
    const title = `Tenancy ${engine}`;
    const email = unique('otto');
    const { link } = await sent(title, { email, name: 'Otto Pass', auth: 'email_otp' });
    const page = await open(link);
    await page.getByRole('heading', { level: 1, name: 'Confirm it is you' }).waitFor();
    const seen = smtp.messages.length;
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByText('We sent a 6-digit code to your e-mail address.').waitFor();
    // The next send waits: the button says so.
    expect(await page.getByRole('button', { name: 'Send a new code' }).isDisabled()).toBe(true);
    await page.getByText(/You can ask for a new code in \d+ s\./).waitFor();
    await shoot(page, `verification-${engine}-email-code-sent`);
    const code = await mailedCode(smtp, email, seen);
    await page.getByLabel('Code from the e-mail').fill('123 45');
    await page.getByRole('button', { name: 'Open the document' }).click();
    await page.getByText('The code has 6 digits.').waitFor();
    await page.getByLabel('Code from the e-mail').fill(`${code.slice(0, 3)} ${code.slice(3)}`);
    await page.getByRole('button', { name: 'Open the document' }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
  });

  it('locks after five wrong codes and says so, in the signee’s language', async () => {
    const title = `Darlehen ${engine}`;
    const signee = {
      email: unique('lou'),
      name: 'Lou Locke',
      auth: 'access_code',
      accessCode: 'Ember-1199',
    };
    const { link } = await sent(title, signee, 'de');
    const page = await open(link);
    await page
      .getByRole('heading', { level: 1, name: 'Bestätigen Sie, dass Sie es sind' })
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    const input = page.getByLabel('Zugangscode');
    const button = page.getByRole('button', { name: 'Dokument öffnen' });
    for (let i = 1; i <= 4; i++) {
      await input.fill(`falsch-${i}`);
      await button.click();
      await page.getByRole('alert').waitFor();
      await page.waitForFunction(() => !document.querySelector('button[aria-busy="true"]'));
    }
    expect(await page.getByRole('alert').innerText()).toContain('Noch ein Versuch');
    await input.fill('falsch-5');
    await button.click();
    await page
      .getByRole('alert')
      .getByText(/Dieser Link ist vorerst gesperrt/)
      .waitFor();
    // The right code now is refused too, with the time to wait.
    await input.fill('Ember-1199');
    await button.click();
    await page
      .getByRole('alert')
      .getByText(/in 15 Min\. erneut/)
      .waitFor();
    await shoot(page, `verification-${engine}-locked-de`);
    expect(await page.locator('main').innerText()).not.toContain(title);
  });

  it('opens with an identity token in the URL and takes it out of the address bar', async () => {
    const keys = await generateKeyPair('ES256', { extractable: true });
    const put = await api(ctx, apiKey, 'PUT', `/api/tenants/${tenantId}/identity-keys`, {
      keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'browser-test' }],
    });
    expect(put.status).toBe(200);
    const title = `Embedded agreement ${engine}`;
    const email = unique('ivy');
    const { link, signeeId } = await sent(title, { email, name: 'Ivy Token', auth: 'email_otp' });
    const jwt = (exp: string) =>
      new SignJWT({ email, jti: randomUUID() })
        .setProtectedHeader({ alg: 'ES256', kid: 'browser-test' })
        .setAudience(signeeId)
        .setIssuer('https://crm.example.com')
        .setSubject('contact-31')
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(keys.privateKey);

    // A token that lives too long is refused: the page says so and asks for the code instead.
    const refusedPage = await open(`${link}?identity=${await jwt('1h')}`);
    await refusedPage.getByText('The link you followed could not confirm who you are').waitFor();
    expect(refusedPage.url()).toBe(link);

    const page = await open(`${link}?identity=${await jwt('5m')}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(page.url()).toBe(link);
    expect(await page.evaluate(() => window.location.search)).toBe('');
  });
});
