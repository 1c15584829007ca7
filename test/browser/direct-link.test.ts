import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  openRecordedPage,
  waitForVisiblePagesDrawn,
  type RecordedPage,
} from '../helpers/browser.js';
import { createTestContext, ENGINES, findFreePort, type TestContext } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { waitForStatus } from '../helpers/signing.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';

type User = Awaited<ReturnType<typeof createUser>>;

// A small phone and a desktop: the form must fit the narrowest screen people sign on.
const NARROW = { width: 360, height: 780 };
const DESKTOP = { width: 1440, height: 900 };
const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

const unique = (label: string) =>
  `${label}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;

/** Saves the page at 360 px and at desktop width. */
async function screenshots(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const size of [NARROW, DESKTOP]) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    await waitForVisiblePagesDrawn(page);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`),
      fullPage: true,
    });
    // Nothing sideways: the page fits the width it is shown at.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      size.width,
    );
  }
  await page.setViewportSize(NARROW);
}

describe.each(ENGINES)('direct link page in Chromium on %s', (engine) => {
  let ctx: TestContext;
  let browser: Browser;
  let owner: User;
  let tenantId: string;
  const opened: RecordedPage[] = [];

  beforeAll(async () => {
    const port = await findFreePort();
    // PUBLIC_URL is the real listening address, so the link and the signing URL open this service.
    ctx = await createTestContext(engine, {
      listen: true,
      env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
    owner = await createUser(ctx, { name: 'Olivia Owner' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  // Every page asked only this service for anything, and nothing went wrong in it; the API's own
  // refusals, which the page shows, are logged by Chromium as failed loads.
  afterEach(async () => {
    const pages = opened.splice(0);
    await Promise.all(pages.map((p) => p.close()));
    const origin = new URL(ctx.baseUrl).origin;
    for (const { requests, problems } of pages) {
      expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      const expected =
        /^console: Failed to load resource: .* (410|422|429) .*@ .*\/api\/direct-links\//;
      expect(problems.filter((p) => !expected.test(p))).toEqual([]);
    }
  });

  const call = (method: string, p: string, body?: unknown) =>
    api(ctx, owner.apiKey, method, p, body);

  async function linkedTemplate(name: string) {
    const made = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template: {
        name,
        roles: [{ name: 'Member' }],
        signingMessage: 'Please read it before your first class.\nSee you soon!',
      },
      fields: signatureFields(1),
    });
    expect(made.status).toBe(201);
    const id = made.body.template.id as string;
    const enabled = await call('PATCH', `/api/templates/${id}`, { directLink: { enabled: true } });
    expect(enabled.status).toBe(200);
    return { id, url: enabled.body.template.directLink.url as string };
  }

  async function open(url: string) {
    const recorded = await openRecordedPage(browser, NARROW);
    opened.push(recorded);
    const response = await recorded.page.goto(url);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    return recorded.page;
  }

  it('takes a name and e-mail, then signs on the signing page', async () => {
    const title = `Studio waiver ${engine}`;
    const link = await linkedTemplate(title);
    expect(link.url.startsWith(`${ctx.baseUrl}/t/dl_`)).toBe(true);
    const page = await open(link.url);

    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    const card = await page.locator('.direct-link').innerText();
    expect(card).toContain('Olivia Owner asks you to sign this document.');
    expect(card).toContain('Please read it before your first class.');
    expect(await page.title()).toBe(`${title} · Signet`);
    await screenshots(page, `direct-link-${engine}-form`);

    // Nothing typed: each box says what it needs, and the name box has the focus.
    const continueButton = page.getByRole('button', { name: 'Continue', exact: true });
    await continueButton.click();
    await page.getByText('Enter your name.').waitFor();
    await page.getByText('Enter your e-mail address.').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'visitor-name');
    const nameBox = page.getByRole('textbox', { name: 'Your name', exact: true });
    const emailBox = page.getByRole('textbox', { name: 'Your e-mail', exact: true });
    expect(await nameBox.getAttribute('aria-invalid')).toBe('true');

    // An address only the service refuses (no real top-level domain): shown at the e-mail box.
    await nameBox.fill('Vera Visitor');
    await emailBox.fill('vera@example.c');
    await continueButton.click();
    await page.getByText('Enter a valid e-mail address, such as name@example.com.').waitFor();
    expect(await emailBox.getAttribute('aria-invalid')).toBe('true');
    expect(await nameBox.getAttribute('aria-invalid')).toBeNull();
    await screenshots(page, `direct-link-${engine}-errors`);

    const email = unique('vera');
    await emailBox.fill(email);
    await continueButton.click();
    await page.waitForURL(/\/sign\/sg_[\w-]+$/);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    const intro = await page.locator('.intro').innerText();
    expect(intro).toContain('Vera Visitor');
    expect(intro).toContain(email);

    // The template's signature field: adopt a typed signature, then place it there.
    await page.getByRole('textbox', { name: 'Type your full name' }).fill('Vera Visitor');
    const field = page.locator('[data-field-type="signature"]');
    await field.scrollIntoViewIfNeeded();
    await field.click();
    await expect.poll(() => field.innerText()).toBe('Vera Visitor');
    await expect
      .poll(() => page.locator('#fields-left').innerText())
      .toBe('Every required field is filled.');
    await page.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
    await page.getByRole('button', { name: 'Sign document', exact: true }).click();
    await page.getByRole('heading', { name: /You have signed/ }).waitFor();
    await screenshots(page, `direct-link-${engine}-signed`);

    const row = await ctx.db.kysely
      .selectFrom('documents')
      .select(['id', 'source'])
      .where('template_id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(row.source).toBe('direct_link');
    const done = await waitForStatus(ctx, owner.apiKey, row.id, 'signed');
    expect(done.signees).toMatchObject([{ email, name: 'Vera Visitor', status: 'signed' }]);
  }, 120_000);

  it('says when the link has been disabled, before or after the form is shown', async () => {
    const link = await linkedTemplate(`Paused ${engine}`);
    const page = await open(link.url);
    await page.getByRole('heading', { level: 1, name: `Paused ${engine}` }).waitFor();

    // Disabled while the visitor fills the form: Continue says so.
    await call('PATCH', `/api/templates/${link.id}`, { directLink: { enabled: false } });
    await page.getByRole('textbox', { name: 'Your name' }).fill('Late Larry');
    await page.getByRole('textbox', { name: 'Your e-mail' }).fill(unique('larry'));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'This link has been disabled' }).waitFor();

    // Opened while disabled.
    await page.reload();
    await page.getByRole('heading', { name: 'This link has been disabled' }).waitFor();
    expect(await page.getByRole('button', { name: 'Continue' }).count()).toBe(0);
    await screenshots(page, `direct-link-${engine}-disabled`);
  }, 60_000);

  it('asks politely to come back later when an address has used links too often', async () => {
    const link = await linkedTemplate(`Popular ${engine}`);
    const email = unique('busy');
    const token = link.url.split('/t/')[1];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${ctx.baseUrl}/api/direct-links/${token}/documents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Busy Bee', email }),
      });
      expect(res.status).toBe(201);
    }
    const page = await open(link.url);
    await page.getByRole('textbox', { name: 'Your name' }).fill('Busy Bee');
    await page.getByRole('textbox', { name: 'Your e-mail' }).fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(
      /^This link has been used a lot lately, from here or with this e-mail address\. Please try again in about (5\d|60) min\.$/,
    );
    expect(page.url()).toBe(link.url);
    await screenshots(page, `direct-link-${engine}-busy`);
  }, 60_000);
});
