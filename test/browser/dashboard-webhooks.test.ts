import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import {
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  useDashboard,
} from './dashboard-support.js';

const PROVOKED = /^console: Failed to load resource: .* status of (40[1349]|422) /;

describe.each(ENGINES)('dashboard: webhooks and their delivery log on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED, {
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '0,200,400',
  });
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    receiver.on('/fail', () => ({ status: 500 }));
  });
  afterAll(() => receiver?.close());

  it('adds, disables, rotates, deletes webhooks; shows attempts and redelivers', async () => {
    const owner = await createUser(d.ctx, { name: 'Wes Webhooks' });
    const tenant = await createTenant(d.ctx, owner.apiKey, 'Hooked Inc');
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/webhooks`);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();

    // A URL the service refuses is explained next to the field.
    await page.getByLabel('Callback URL').fill('ftp://example.com/x');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.locator('.field-error, .form-error').first().waitFor();

    const okUrl = receiver.url('/ok');
    const failUrl = receiver.url('/fail');
    for (const url of [okUrl, failUrl]) {
      await page.getByLabel('Callback URL').fill(url);
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const secret = page.getByRole('textbox', { name: `Signing secret for ${url}` });
      await secret.waitFor();
      expect(await secret.inputValue()).toMatch(/^whsec_/);
      await page.getByText('this is the only time Signet shows it').waitFor();
      await page.getByRole('button', { name: 'I have saved it' }).click();
    }
    await screenshotPage(page, 'webhooks');

    // An event: a document sent for signing changes status.
    const created = await quickCreate(d.ctx, owner.apiKey, { tenantId: tenant.id });
    expect(created.status).toBe(201);
    const sent = await api(
      d.ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${created.body.document.id}/send-for-signing`,
    );
    expect(sent.status).toBe(200);
    await receiver.waitFor('/ok', 1);
    await receiver.waitFor('/fail', 3, 10_000);

    await page.getByRole('link', { name: `Delivery log of ${failUrl}` }).click();
    await page.getByRole('heading', { level: 1, name: 'Delivery log' }).waitFor();
    // All three attempts, each with its status code and duration, once the series is over.
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          await page.waitForTimeout(150);
          return page.locator('.delivery .badge').first().textContent();
        },
        { timeout: 10_000 },
      )
      .toBe('failed');
    const rows = page.locator('.delivery').first().locator('tbody tr');
    await expect(rows.count()).resolves.toBe(3);
    for (const text of await rows.allTextContents()) {
      expect(text).toContain('500');
      expect(text).toMatch(/\d+ ms/);
    }
    await screenshotPage(page, 'webhook-deliveries');
    await page.setViewportSize(VIEWPORTS.phone);
    await expectNoSidewaysScroll(page);
    await page.setViewportSize(VIEWPORTS.desktop);

    // Redeliver starts a fresh series for the same event.
    receiver.on('/fail', () => ({ status: 204 }));
    await page.getByRole('button', { name: /^Redeliver document\.status_changed/ }).click();
    await page.getByText('Redelivery of document.status_changed started.').waitFor();
    await receiver.waitFor('/fail', 4);
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await page.waitForTimeout(150);
        return page.getByRole('cell', { name: '204' }).count();
      })
      .toBeGreaterThan(0);

    // Disable, enable, rotate, delete: each reflected in the API.
    const hooks = async () =>
      (await api(d.ctx, owner.apiKey, 'GET', `/api/tenants/${tenant.id}/webhooks`)).body
        .webhooks as {
        url: string;
        active: boolean;
      }[];
    await page.getByRole('link', { name: '← All webhooks' }).click();
    await page.getByRole('button', { name: `Disable ${okUrl}` }).click();
    await page.getByRole('button', { name: `Enable ${okUrl}` }).waitFor();
    expect((await hooks()).find((h) => h.url === okUrl)?.active).toBe(false);
    await page.getByRole('button', { name: `Enable ${okUrl}` }).click();
    await page.getByRole('button', { name: `Disable ${okUrl}` }).waitFor();
    expect((await hooks()).find((h) => h.url === okUrl)?.active).toBe(true);

    await page.getByRole('button', { name: `Rotate secret of ${okUrl}` }).click();
    await page.getByRole('button', { name: 'Yes, rotate' }).click();
    const rotated = page.getByRole('textbox', { name: `New signing secret for ${okUrl}` });
    await rotated.waitFor();
    expect(await rotated.inputValue()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have saved it' }).click();

    await page.getByRole('button', { name: `Delete ${failUrl}` }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText(`Deleted the webhook for ${failUrl}.`).waitFor();
    expect((await hooks()).map((h) => h.url)).toEqual([okUrl]);
  });
});
