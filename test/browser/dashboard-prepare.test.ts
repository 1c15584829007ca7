import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotBothWidths, VIEWPORTS, waitForVisiblePagesDrawn } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { inkIn, renderPage } from '../helpers/pdf-render.js';
import { signingCall, signingTokenFromMailbox, waitForStatus } from '../helpers/signing.js';
import {
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  useDashboard,
} from './dashboard-support.js';

// Answers this test provokes on purpose: the 401 of logging in, a dropdown saved without options
// (422), and sending while the signee has no signature field (422).
const PROVOKED = /^console: Failed to load resource: .* status of (401|422) /;

/** makePdf's pages: A4 portrait, in points. */
const PAGE = { width: 595, height: 842 };

type Rect = { x: number; y: number; width: number; height: number };

type Field = {
  id: string;
  signeeId: string;
  type: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  options: string[] | null;
};

const sheet = (page: Page, n: number) => page.locator(`.prepare-sheet[data-page-number="${n}"]`);
const fieldsOfType = (page: Page, type: string) =>
  page.locator(`.prepare-field-wrap[data-field-type="${type}"]`);

describe.each(ENGINES)('dashboard: prepare fields on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('places a signature by dragging it onto page 2, saves, sends, and the seal draws it there', async () => {
    const owner = await createUser(d.ctx, { name: 'Pia Preparer' });
    await createTenant(d.ctx, owner.apiKey, 'Fields Co');
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    const signee = { name: 'Ann Signer', email: `ann-${engine}@example.com` };

    // A two-page draft with one signee, uploaded through the dashboard.
    await page.getByRole('link', { name: 'Upload a document' }).click();
    await page.getByLabel('Recipient name').fill(signee.name);
    await page.getByLabel('Recipient e-mail').fill(signee.email);
    await page.getByLabel('Document name').fill('Service contract');
    await page.getByLabel('PDF file').setInputFiles({
      name: 'contract.pdf',
      mimeType: 'application/pdf',
      buffer: makePdf({ pages: 2, title: 'Contract' }),
    });
    await page.getByRole('button', { name: 'Upload and continue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Recipients: Service contract' }).waitFor();
    const documentId = new URL(page.url()).pathname.split('/')[3];
    // This test prepares from the document's page: leave the guided flow for it.
    await page.getByRole('link', { name: 'Finish later' }).click();
    await page.getByRole('heading', { level: 1, name: 'Service contract' }).waitFor();
    const fieldsNow = async (): Promise<Field[]> => {
      const res = await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${documentId}/fields`);
      expect(res.status).toBe(200);
      return res.body.fields;
    };

    // Prepare: the draft's pages, drawn by pdf.js from its own download URL.
    await page.getByRole('link', { name: 'Prepare fields' }).click();
    await page
      .getByRole('heading', { level: 1, name: 'Prepare fields: Service contract' })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/documents/${documentId}/prepare`);
    await sheet(page, 2).waitFor();
    await expect.poll(() => page.locator('.prepare-sheet').count()).toBe(2);
    await waitForVisiblePagesDrawn(page);
    const saveState = page.locator('.save-state');
    await expect(saveState.textContent()).resolves.toBe('All changes saved');
    await expect(
      page.getByRole('button', { name: /^Page 1/ }).getAttribute('aria-current'),
    ).resolves.toBe('true');

    // The keyboard: Enter on a palette button adds the field to the current page (1).
    await page.getByRole('button', { name: `Add Dropdown field for ${signee.name}` }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => fieldsOfType(page, 'dropdown').count()).toBe(1);
    await expect(fieldsOfType(page, 'dropdown').getAttribute('data-page')).resolves.toBe('1');
    await expect(saveState.textContent()).resolves.toBe('Unsaved changes');
    // And Delete removes the focused field: a text field added and taken away again.
    await page.getByRole('button', { name: `Add Text field for ${signee.name}` }).click();
    const textField = page.getByRole('button', {
      name: `Text field for ${signee.name} on page 1`,
      exact: true,
    });
    await textField.waitFor();
    await expect.poll(() => textField.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.press('Delete');
    await expect.poll(() => fieldsOfType(page, 'text').count()).toBe(0);

    // Saved without options, the service's 422 is shown at the dropdown and at its Options box.
    await page.getByRole('button', { name: 'Save fields' }).click();
    await page.getByText(/The fields were not saved: 1 problem/).waitFor();
    const bubble = fieldsOfType(page, 'dropdown').locator('.prepare-field-error');
    await expect(bubble.textContent()).resolves.toMatch(/needs at least one option/);
    const dropdownBox = page.getByRole('button', {
      name: `Dropdown field for ${signee.name} on page 1`,
      exact: true,
    });
    await expect(dropdownBox.getAttribute('aria-invalid')).resolves.toBe('true');
    const options = page.getByLabel('Options', { exact: true });
    await expect(options.getAttribute('aria-invalid')).resolves.toBe('true');
    await page.screenshot({
      path: screenshotPath('dashboard-prepare-error-1440.png'),
    });
    expect(await fieldsNow()).toEqual([]);

    await options.fill('Monthly\nYearly');
    await page.getByLabel('Label', { exact: true }).fill('Billing');
    await page.getByRole('button', { name: 'Save fields' }).click();
    // A cold service's first save reads the PDF's pages (a worker thread starting): up to 2 s here.
    await expect.poll(() => saveState.textContent(), { timeout: 10_000 }).toBe('All changes saved');
    expect(await fieldsNow()).toMatchObject([
      { type: 'dropdown', page: 1, options: ['Monthly', 'Yearly'], required: false },
    ]);
    // Fields but no signature field: the page says sending will be refused.
    await page
      .getByText(/Sending will be refused until every signee has a signature field/)
      .waitFor();

    // The detail page warns too, and the service's refusal is shown with its detail.
    await page.getByRole('link', { name: '← Back to the document' }).click();
    await page.getByRole('heading', { level: 1, name: 'Service contract' }).waitFor();
    await page
      .getByText(`Sending will be refused: ${signee.name} has no signature field.`)
      .waitFor();
    await page.getByRole('button', { name: 'Send for signing' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Not sent:' });
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toContain(
      `${signee.name} <${signee.email}> has none`,
    );
    expect(
      (await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${documentId}`)).body.document.status,
    ).toBe('draft');

    await screenshotPage(page, 'document-detail-refused');

    // Back to Prepare: drag a signature from the palette onto page 2.
    await refusal.getByRole('link', { name: 'Prepare fields' }).click();
    await sheet(page, 2).waitFor();
    await sheet(page, 2).scrollIntoViewIfNeeded();
    await waitForVisiblePagesDrawn(page);
    const target = await sheet(page, 2).boundingBox();
    expect(target).not.toBeNull();
    const drop = { x: target!.width * 0.3, y: target!.height * 0.6 };
    await page
      .getByRole('button', { name: `Add Signature field for ${signee.name}` })
      .dragTo(sheet(page, 2), { targetPosition: drop });
    const signature = fieldsOfType(page, 'signature');
    await expect.poll(() => signature.count()).toBe(1);
    await expect(signature.getAttribute('data-page')).resolves.toBe('2');
    await expect(
      page.getByRole('button', { name: /^Page 2/ }).getAttribute('aria-current'),
    ).resolves.toBe('true');
    // Each page's thumbnail is drawn (ink on its canvas), and page 2's marks the new field.
    const thumbs = page.locator('.page-thumb');
    await expect.poll(() => thumbs.count()).toBe(2);
    await expect
      .poll(() => page.locator('.page-thumb[data-drawn="true"]').count(), { timeout: 10_000 })
      .toBe(2);
    for (let i = 0; i < 2; i++) {
      const dark = await thumbs
        .nth(i)
        .locator('canvas')
        .evaluate((c: HTMLCanvasElement) => {
          const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
          let n = 0;
          // At 72 px wide a page's text is a few grey pixels high: count anything not white.
          for (let p = 0; p < data.length; p += 4) if (data[p + 3] > 0 && data[p] < 224) n++;
          return n;
        });
      expect(dark, `thumbnail of page ${i + 1}`).toBeGreaterThan(10);
    }
    expect(await thumbs.nth(1).locator('.page-thumb-mark').count()).toBe(1);
    // Where it was dropped, in points: the field is centred there (180 × 48 by default).
    const scale = target!.width / PAGE.width;
    const centre = { x: drop.x / scale, y: drop.y / scale };

    // Moved 10 points down with Shift+ArrowDown, 30 CSS pixels right by dragging it, then made
    // 40 CSS pixels wider by its corner handle.
    const signatureBox = page.getByRole('button', {
      name: `Signature field for ${signee.name} on page 2`,
      exact: true,
    });
    await expect.poll(() => signatureBox.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.press('Shift+ArrowDown');
    const dragBy = async (from: { x: number; y: number }, dx: number, dy: number) => {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(from.x + dx / 2, from.y + dy / 2, { steps: 2 });
      await page.mouse.move(from.x + dx, from.y + dy, { steps: 2 });
      await page.mouse.up();
    };
    const middle = async (box: { boundingBox: () => Promise<Rect | null> }) => {
      const r = (await box.boundingBox())!;
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    };
    await dragBy(await middle(signatureBox), 30, 0);
    await dragBy(await middle(signature.locator('.prepare-field-resize')), 40, 0);
    // Enter on the field opens its properties: the focus goes to the panel's first control.
    await signatureBox.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByLabel('Signee').evaluate((e) => e === document.activeElement))
      .toBe(true);
    await expect(saveState.textContent()).resolves.toBe('Unsaved changes');
    // With a signature field for the signee, the warning is gone.
    await expect.poll(() => page.getByText(/Sending will be refused/).count()).toBe(0);

    // The Prepare view at a 360 px phone and a desktop, a field selected (its panel shown).
    await screenshotBothWidths(page, 'dashboard-prepare');
    await page.setViewportSize({ width: 360, height: 780 });
    await waitForVisiblePagesDrawn(page);
    await expectNoSidewaysScroll(page);
    await signatureBox.scrollIntoViewIfNeeded();
    await waitForVisiblePagesDrawn(page);
    await page.screenshot({ path: screenshotPath('dashboard-prepare-360.png') });
    // With nothing selected the panel sheet goes away: the palette above the first page.
    await page.getByRole('button', { name: 'Done editing this field' }).click();
    await expect.poll(() => page.locator('.prepare-aside.editing').count()).toBe(0);
    await page.getByRole('heading', { name: 'Add fields' }).scrollIntoViewIfNeeded();
    await waitForVisiblePagesDrawn(page);
    await page.screenshot({ path: screenshotPath('dashboard-prepare-360-palette.png') });
    await expectNoSidewaysScroll(page);
    await page.setViewportSize(VIEWPORTS.desktop);

    // Leaving with unsaved changes asks first; staying keeps them.
    await page.getByRole('link', { name: '← Back to the document' }).click();
    await page.getByRole('group', { name: 'Leave without saving?' }).waitFor();
    await page.getByRole('button', { name: 'Stay' }).click();
    await expect(saveState.textContent()).resolves.toBe('Unsaved changes');
    // So do the header's links.
    await page
      .getByRole('navigation')
      .getByRole('link', { name: 'Documents', exact: true })
      .click();
    await page.getByRole('group', { name: 'Leave without saving?' }).waitFor();
    await page.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toMatch(/\/prepare$/);
    await expect(saveState.textContent()).resolves.toBe('Unsaved changes');

    await page.getByRole('button', { name: 'Save fields' }).click();
    // Saves wait on the database and, on a cold service, a worker thread: not the UI.
    await expect.poll(() => saveState.textContent(), { timeout: 10_000 }).toBe('All changes saved');
    const saved = await fieldsNow();
    expect(saved.map((f) => [f.type, f.page])).toEqual([
      ['dropdown', 1],
      ['signature', 2],
    ]);
    const placed = saved[1];
    expect(placed.required).toBe(true);
    expect(placed.width).toBeGreaterThan(180 + 40 / scale - 3);
    expect(placed.width).toBeLessThan(180 + 40 / scale + 3);
    expect(placed.height).toBe(48);
    expect(Math.abs(placed.x + 90 - (centre.x + 30 / scale))).toBeLessThan(3);
    expect(Math.abs(placed.y + 24 - (centre.y + 10))).toBeLessThan(3);
    expect(placed.x + placed.width).toBeLessThanOrEqual(PAGE.width);
    expect(placed.y + placed.height).toBeLessThanOrEqual(PAGE.height);

    // Sent from the dashboard's detail page, as before.
    await page.getByRole('link', { name: '← Back to the document' }).click();
    await page.getByRole('heading', { level: 1, name: 'Service contract' }).waitFor();
    await page.getByText('2 fields placed on the pages.').waitFor();
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.getByRole('heading', { name: 'Delivery results' }).waitFor();
    // Once sent (the page reloads the document), fields can no longer be prepared.
    await expect.poll(() => page.getByRole('link', { name: 'Prepare fields' }).count()).toBe(0);

    // The signee signs through the signing API; the seal draws the signature in its box.
    const token = await signingTokenFromMailbox(d.ctx, signee.email);
    const view = await signingCall(d.ctx, token, '');
    expect(view.body.fields.map((f: Field) => f.type).sort()).toEqual(['dropdown', 'signature']);
    const signed = await signingCall(d.ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: signee.name },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const done = await waitForStatus(d.ctx, owner.apiKey, documentId, 'signed');
    const url = new URL(done.document.downloadUrl);
    const sealed = Buffer.from(
      await (await fetch(`${d.ctx.baseUrl}${url.pathname}${url.search}`)).arrayBuffer(),
    );
    expect(sealed.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Page 2 rendered by pdftoppm: the field's box in pixels at the render's resolution.
    const render = renderPage(sealed, 2);
    const px = render.width / PAGE.width;
    expect(Math.round(render.height / px)).toBe(PAGE.height);
    const inPixels = (b: { x: number; y: number; width: number; height: number }) => ({
      x: b.x * px,
      y: b.y * px,
      width: b.width * px,
      height: b.height * px,
    });
    expect(inkIn(render, inPixels(placed))).toBeGreaterThan(0.02);
    // The same box further down the page, where nothing was placed, has no ink.
    const below = { ...placed, y: placed.y + placed.height + 60 };
    expect(below.y + below.height).toBeLessThan(PAGE.height);
    expect(inkIn(render, inPixels(below))).toBe(0);
  });
});

function screenshotPath(name: string): string {
  const dir = path.resolve('test-results/screenshots');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}
