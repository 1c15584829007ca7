import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRecordedPage, waitForVisiblePagesDrawn } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createUser, type TestUser } from '../helpers/factories.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { expectNoSidewaysScroll, useDashboard, type Dashboard } from './dashboard-support.js';

// The API's answers to the mistakes made on purpose; the dev mailbox's and the signing page's
// server-rendered pages have no icon (favicon.ico is a 404).
const PROVOKED = /^console: Failed to load resource: .* status of (40[14]|422) |favicon\.ico$/;

const PHONE = { width: 360, height: 740 };
// The sandbox banner and the header together, from the top of the page.
const MAX_HEADER_BOTTOM = 96;
const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `dashboard-mobile-${name}-360.png`) });
}

async function openPhone(d: Dashboard, user?: TestUser): Promise<Page> {
  const recorded = await openRecordedPage(d.browser, PHONE);
  d.opened.push(recorded);
  const { page } = recorded;
  if (user) {
    await page.goto(`${d.ctx.baseUrl}/login`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  }
  return page;
}

// The input a visible label names is invalid, and its description is exactly `message`.
async function expectFieldMessage(page: Page, label: string, message: string) {
  const input = page.getByLabel(label, { exact: true });
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ');
  const described = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  expect(described).toContain(message);
  // Next to the field: the message is in the same field block as the input.
  const block = page.locator('.field').filter({ has: input });
  await expect(block.locator('.field-error').textContent()).resolves.toBe(message);
}

describe.each(ENGINES)('dashboard on a 360 px phone on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    receiver.on('/hook', () => ({ status: 503 }));
  });
  afterAll(() => receiver?.close());

  // A tenant, a sent document with two signees, a draft, a webhook with failed deliveries, an
  // API key made with the session and a pending invitation: every page has something to show.
  async function seed(owner: TestUser) {
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await api(d.ctx, owner.apiKey, method, url, body);
      expect(res.status, `${method} ${url}`).toBeLessThan(300);
      return res.body;
    };
    const { tenant } = await call('POST', '/api/tenants', { name: 'Pocket Contracts Ltd' });
    await call('POST', `/api/tenants/${tenant.id}/webhooks`, {
      url: receiver.url('/hook'),
    });
    const signees = [
      { email: 'anneliese.oberhauser-lindqvist@very-long-company-name.example', name: 'Anneliese' },
      { email: 'ben@example.com', name: 'Ben Example' },
    ];
    const docs: string[] = [];
    for (const name of ['Framework agreement for consulting services 2027', 'Short NDA']) {
      const created = await quickCreate(d.ctx, owner.apiKey, {
        tenantId: tenant.id,
        signees,
        extra: { name },
      });
      expect(created.status).toBe(201);
      docs.push(created.body.document.id);
    }
    await call('POST', `/api/documents/${docs[0]}/send-for-signing`);
    await receiver.waitFor('/hook', 1);
    await call('POST', `/api/tenants/${tenant.id}/members`, {
      email: 'new.colleague.with.a.long.address@very-long-company-name.example',
      role: 'admin',
    });
    const key = await fetch(`${d.ctx.baseUrl}/api/account/api-keys`, {
      method: 'POST',
      headers: {
        cookie: owner.cookie,
        origin: new URL(d.ctx.baseUrl).origin,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'Phone-made key for the nightly export job' }),
    });
    expect(key.status).toBe(201);
    const webhooks = await call('GET', `/api/tenants/${tenant.id}/webhooks`);
    return { tenant, sent: docs[0], draft: docs[1], webhookId: webhooks.webhooks[0].id as string };
  }

  it('fits every page at 360 px: a one-row header, tables that scroll in their own box', async () => {
    const owner = await createUser(d.ctx, { name: 'Pia Phone' });
    const { sent, draft, webhookId } = await seed(owner);

    const guest = await openPhone(d);
    for (const [url, title] of [
      ['/login', 'Log in'],
      ['/signup', 'Create your account'],
    ]) {
      await guest.goto(`${d.ctx.baseUrl}${url}`);
      await guest.getByRole('heading', { level: 1, name: title }).waitFor();
      await expectNoSidewaysScroll(guest);
      await screenshot(guest, url.slice(1));
    }

    const page = await openPhone(d, owner);
    const header = page.locator('.dash-header');
    const pages: Array<[string, string | RegExp, string]> = [
      ['/app/documents', 'Documents', 'documents'],
      [`/app/documents/${sent}`, 'Framework agreement for consulting services 2027', 'document'],
      [`/app/documents/${draft}`, 'Short NDA', 'draft'],
      ['/app/documents/new', 'Upload a document', 'upload'],
      [`/app/documents/${draft}/prepare`, 'Prepare fields: Short NDA', 'prepare'],
      ['/app/workspace', 'Workspace', 'tenants'],
      ['/app/webhooks', 'Webhooks', 'webhooks'],
      [`/app/webhooks/${webhookId}`, 'Delivery log', 'deliveries'],
      ['/app/api-keys', 'API keys', 'api-keys'],
    ];
    for (const [url, title, name] of pages) {
      await page.goto(`${d.ctx.baseUrl}${url}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      if (name === 'prepare') await waitForVisiblePagesDrawn(page);
      if (name === 'deliveries') await page.locator('.delivery table tbody tr').first().waitFor();
      if (name === 'tenants') await page.getByRole('heading', { name: 'Members' }).waitFor();
      await expectNoSidewaysScroll(page);
      const box = await header.boundingBox();
      expect(box?.y ?? 0, `${name}: header top`).toBeLessThanOrEqual(40);
      expect((box?.y ?? 0) + (box?.height ?? 0), `${name}: header bottom`).toBeLessThanOrEqual(
        MAX_HEADER_BOTTOM,
      );
      await screenshot(page, name);
    }

    // The navigation is behind the Menu button, a disclosure that closes on navigating.
    await page.goto(`${d.ctx.baseUrl}/app/documents`);
    await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(nav.isVisible()).resolves.toBe(false);
    await menu.click();
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
    await page.getByLabel('Current workspace').waitFor();
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'menu');
    await page.keyboard.press('Escape');
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(menu.evaluate((e) => e === document.activeElement)).resolves.toBe(true);
    await menu.click();
    await nav.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await expect(nav.isVisible()).resolves.toBe(false);

    // The documents table is wider than the phone: its box scrolls, the page does not.
    await page.goto(`${d.ctx.baseUrl}/app/documents`);
    await page.locator('tbody tr').nth(1).waitFor();
    const wrap = page.locator('.table-wrap').first();
    const sizes = await wrap.evaluate((e) => ({
      scroll: e.scrollWidth,
      client: e.clientWidth,
      overflowX: getComputedStyle(e).overflowX,
    }));
    expect(sizes.overflowX).toBe('auto');
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    expect(sizes.client).toBeLessThanOrEqual(PHONE.width);
    await wrap.evaluate((e) => e.scrollBy({ left: 400 }));
    await expect.poll(() => wrap.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0);
    await expect(page.evaluate(() => window.scrollX)).resolves.toBe(0);
    await expectNoSidewaysScroll(page);
    // The last column can be reached and used inside the box.
    await page.getByRole('button', { name: /^Pin Short NDA$/ }).click();
    await page.getByText('Pinned Short NDA.').waitFor();
  });

  it('says what is wrong in plain words next to the field that is wrong', async () => {
    const guest = await openPhone(d);
    await guest.goto(`${d.ctx.baseUrl}/signup`);
    await guest.getByLabel('E-mail').fill('not-an-address');
    await guest.getByLabel('Password').fill('short');
    await guest.getByRole('button', { name: 'Sign up' }).click();
    await expectFieldMessage(
      guest,
      'E-mail',
      'E-mail must be a valid address like name@example.com.',
    );
    await expectFieldMessage(guest, 'Password', 'Password must be at least 10 characters.');
    await expectFieldMessage(guest, 'Name', 'Name must not be empty.');
    await expectNoSidewaysScroll(guest);
    await screenshot(guest, 'signup-errors');

    const owner = await createUser(d.ctx, { name: 'Pia Phone' });
    const { tenant } = await api(d.ctx, owner.apiKey, 'POST', '/api/tenants', {
      name: 'Pocket Contracts Ltd',
    }).then((r) => r.body);
    expect(tenant.id).toBeTruthy();
    const page = await openPhone(d, owner);

    // A workspace without a name: zod's "Too small: expected string to have >=1 characters".
    await page.goto(`${d.ctx.baseUrl}/app/workspace`);
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await expectFieldMessage(
      page,
      'Name of the new workspace',
      'Name of the new workspace must not be empty.',
    );

    // A callback URL that is not one.
    await page.goto(`${d.ctx.baseUrl}/app/webhooks`);
    await page.getByLabel('Callback URL').fill('example dot com');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expectFieldMessage(
      page,
      'Callback URL',
      'Callback URL must be a full URL like https://example.com/webhooks.',
    );

    // Upload: no file, and the recipient's e-mail wrong. Each message is on its own row.
    await page.goto(`${d.ctx.baseUrl}/app/documents/new`);
    await page.getByLabel('Recipient name').fill('Ann Signer');
    await page.getByLabel('Recipient e-mail').fill('ann at example');
    await page.getByRole('button', { name: 'Upload and continue' }).click();
    await expectFieldMessage(
      page,
      'Recipient e-mail',
      'Recipient e-mail must be a valid address like name@example.com.',
    );
    await expect(page.getByLabel('Recipient name').getAttribute('aria-invalid')).resolves.toBe(
      null,
    );
    await expectFieldMessage(page, 'PDF file', 'Choose a PDF file to upload.');
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'upload-errors');
    // No raw schema wording anywhere on the page.
    const text = (await page.textContent('main')) ?? '';
    expect(text).not.toMatch(/Too small|Too big|Invalid input|expected string|signees\.\d/);

    // A folder without a name. (A workspace without documents shows only its upload action.)
    const doc = await quickCreate(d.ctx, owner.apiKey, { tenantId: tenant.id });
    expect(doc.status).toBe(201);
    await page.goto(`${d.ctx.baseUrl}/app/documents`);
    await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
    const folders = page.getByRole('navigation', { name: 'Folders' });
    await folders.locator('summary').click();
    await folders.getByRole('button', { name: 'Create folder' }).click();
    await expectFieldMessage(page, 'New folder', 'Folder name must not be empty.');
  });

  it('opens the signing link of an invitation from the dev mailbox as the whole page', async () => {
    const owner = await createUser(d.ctx, { name: 'Pia Phone' });
    const { tenant } = (await api(d.ctx, owner.apiKey, 'POST', '/api/tenants', { name: 'Acme' }))
      .body;
    const signee = `sam.${Date.now()}@example.com`;
    const created = await quickCreate(d.ctx, owner.apiKey, {
      tenantId: tenant.id,
      signees: [{ email: signee, name: 'Sam Signee' }],
      extra: { name: 'Phone lease' },
    });
    expect(created.status).toBe(201);
    const documentId = created.body.document.id;
    const sent = await api(
      d.ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${documentId}/send-for-signing`,
    );
    expect(sent.status).toBeLessThan(300);

    const page = await openPhone(d);
    await page.goto(`${d.ctx.baseUrl}/dev/mailbox?to=${encodeURIComponent(signee)}`);
    await expectNoSidewaysScroll(page);
    await page.locator('a[href^="/dev/mailbox/"]').first().click();
    const frame = page.frameLocator('iframe[title="E-mail body"]');
    const link = frame.locator('a[href*="/sign/sg_"]').first();
    await link.waitFor();
    const href = (await link.getAttribute('href')) ?? '';
    expect(href.startsWith(`${d.ctx.baseUrl}/sign/sg_`)).toBe(true);
    // Still sandboxed: no scripts, no origin; only a click may navigate the whole page.
    const sandbox = (await page.locator('iframe').getAttribute('sandbox')) ?? '';
    expect(sandbox.split(' ')).not.toContain('allow-scripts');
    expect(sandbox.split(' ')).not.toContain('allow-same-origin');
    expect(sandbox.split(' ')).toContain('allow-top-navigation-by-user-activation');
    // The same link, as a plain link of the mailbox page.
    await expect(
      page.getByRole('list').getByRole('link', { name: href }).getAttribute('href'),
    ).resolves.toBe(href);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'mailbox-email');

    await link.click();
    await page.waitForURL(href);
    // The top-level page is the signing page, not a frame inside the mailbox: it runs and shows
    // the document.
    expect(page.frames()).toHaveLength(1);
    await page.getByRole('heading', { name: 'Phone lease' }).first().waitFor();
    await page.locator('.pdf-page[data-rendered="true"]').first().waitFor();
    await page.getByRole('heading', { name: /Sign as Sam Signee/ }).waitFor();
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'signing-from-mailbox');
    const state = await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${documentId}`);
    expect(state.body.signees[0].openedAt).not.toBeNull();
  });
});
