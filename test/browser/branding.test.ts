import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { openRecordedPage, waitForVisiblePagesDrawn } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingTokenFromMailbox } from '../helpers/signing.js';
import { bigPngLogo, gifFile } from '../tenants/logo-files.js';
import {
  callApi,
  expectNoSidewaysScroll,
  openLoggedIn,
  useDashboard,
} from './dashboard-support.js';

// The login page asks who is logged in (401), and the GIF is refused on purpose (415).
const PROVOKED = /^console: Failed to load resource: .* status of (401|415) /;
const SHOTS = '/work/shots-brand49';
const WIDTHS = [360, 1280];

/** The computed colours of an element: background and text, as rgb(). */
const coloursOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((e) => {
      const style = getComputedStyle(e);
      return { background: style.backgroundColor, text: style.color };
    });

/** The image in `selector` has loaded (a broken one has no natural width). */
async function expectImageLoaded(page: Page, selector: string, url: string) {
  const image = page.locator(selector).first();
  await image.waitFor();
  expect(await image.getAttribute('src')).toBe(url);
  await expect
    .poll(() => image.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth))
    .toBe(288);
}

describe.each(ENGINES)('branding in Chromium on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('edits the brand in the dashboard with a live preview, and the signing page wears it', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const owner = await createUser(d.ctx, { name: 'Olivia Owner' });
    const tenantId = (await createTenant(d.ctx, owner.apiKey, 'Acme Legal')).id;
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Workspace' })
      .click();
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Brand' }) });
    await section.getByLabel('Brand name').waitFor();
    const signingPreview = section.getByTestId('signing-preview');
    const emailPreview = section.getByTestId('email-preview');
    // Unbranded: Signet's header in the preview.
    await expect.poll(() => signingPreview.locator('.site-header').textContent()).toBe('Signet');

    // The preview follows the form before anything is saved.
    await section.getByLabel('Brand name').fill('Acme Legal & Partners');
    await section.getByLabel('Brand colour').fill('#0F766E');
    await expect
      .poll(() => signingPreview.locator('.brand-name').textContent())
      .toBe('Acme Legal & Partners');
    expect(await emailPreview.locator('strong').textContent()).toBe('Acme Legal & Partners');
    // Polled: buttons ease from one colour to the next.
    await expect
      .poll(() => coloursOf(page, '[data-testid="signing-preview"] .button.primary'))
      .toEqual({
        background: 'rgb(15, 118, 110)',
        text: 'rgb(255, 255, 255)',
      });
    await section.getByText('Buttons get white text').waitFor();
    await section.getByRole('button', { name: 'Save brand' }).click();
    await section.getByText('Brand saved.').waitFor();

    // A GIF is refused with the service's own words; a PNG is uploaded and shown at once.
    await section.getByLabel('Logo').setInputFiles({
      name: 'logo.gif',
      mimeType: 'image/gif',
      buffer: await gifFile(),
    });
    await section.getByText(/image\/png or image\/jpeg/).waitFor();
    await section.getByLabel('Logo').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: await bigPngLogo(),
    });
    await section.getByText('Logo uploaded.').waitFor();
    const { logo } = (await callApi(d.ctx, owner.apiKey, 'GET', `/api/tenants/${tenantId}/logo`))
      .body as { logo: { url: string; width: number; height: number } };
    expect(logo).toMatchObject({ width: 288, height: 120 });
    await expectImageLoaded(page, '[data-testid="signing-preview"] .brand-logo', logo.url);
    await expectImageLoaded(page, '[data-testid="email-preview"] img', logo.url);
    const settings = await callApi(d.ctx, owner.apiKey, 'GET', `/api/tenants/${tenantId}/settings`);
    expect((settings.body as { settings: object }).settings).toMatchObject({
      brandName: 'Acme Legal & Partners',
      brandColor: '#0f766e',
    });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(150);
      await expectNoSidewaysScroll(page);
      await section.screenshot({ path: `${SHOTS}/dashboard-brand-${width}.png` });
    }

    // The signing page: the logo and name in the header, the colour on its buttons.
    const signee = `brand.${engine}.${Date.now()}@example.com`;
    const created = await quickCreate(d.ctx, owner.apiKey, {
      tenantId,
      signees: [{ email: signee, name: 'Sam Signee' }],
      extra: { name: 'Service agreement' },
    });
    await api(
      d.ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${created.body.document.id}/send-for-signing`,
    );
    const token = await signingTokenFromMailbox(d.ctx, signee);
    const recorded = await openRecordedPage(d.browser, { width: 1280, height: 900 });
    d.opened.push(recorded);
    const sign = recorded.page;
    await sign.goto(`${d.ctx.baseUrl}/sign/${token}`);
    await sign.getByRole('heading', { level: 1, name: 'Service agreement' }).waitFor();
    await expectImageLoaded(sign, '.site-header .brand-logo', logo.url);
    expect(await sign.locator('.site-header .brand-logo').getAttribute('alt')).toBe(
      'Acme Legal & Partners',
    );
    expect(await sign.locator('.site-header .brand-name').textContent()).toBe(
      'Acme Legal & Partners',
    );
    expect(await sign.locator('.site-header .brand-credit').textContent()).toBe('Signet');
    await expect
      .poll(() => coloursOf(sign, '#signing .button.primary'))
      .toEqual({
        background: 'rgb(15, 118, 110)',
        text: 'rgb(255, 255, 255)',
      });
    for (const width of WIDTHS) {
      await sign.setViewportSize({ width, height: 900 });
      await waitForVisiblePagesDrawn(sign);
      await expectNoSidewaysScroll(sign);
      await sign.screenshot({ path: `${SHOTS}/signing-${width}.png` });
    }
    // The logo the page shows is the stored, re-encoded one.
    const served = Buffer.from(await (await fetch(logo.url)).arrayBuffer());
    expect((await sharp(served).metadata()).width).toBe(288);

    // A pale colour: its buttons get black text, and its links fall back to readable ink.
    await callApi(d.ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
      brandColor: '#ffeb3b',
    });
    await sign.reload();
    await sign.getByRole('heading', { level: 1, name: 'Service agreement' }).waitFor();
    await expect
      .poll(() => coloursOf(sign, '#signing .button.primary'))
      .toEqual({
        background: 'rgb(255, 235, 59)',
        text: 'rgb(0, 0, 0)',
      });
    expect((await coloursOf(sign, '.eyebrow')).text).toBe('rgb(23, 32, 46)');
    await sign.setViewportSize({ width: 360, height: 900 });
    await waitForVisiblePagesDrawn(sign);
    await sign.screenshot({ path: `${SHOTS}/signing-pale-360.png` });
  });
});
