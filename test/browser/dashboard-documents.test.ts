import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import {
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  useDashboard,
} from './dashboard-support.js';

const PROVOKED = /^console: Failed to load resource: .* status of (40[1349]|41[35]|422|429) /;

describe.each(ENGINES)('dashboard: documents on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('uploads with field errors, sends, reminds, cancels, downloads; lists with filter and pages', async () => {
    const owner = await createUser(d.ctx, { name: 'Doris Documents' });
    const tenant = await createTenant(d.ctx, owner.apiKey, 'Paper Co');
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.getByRole('link', { name: 'Upload a document' }).click();
    await page.getByRole('heading', { level: 1, name: 'Upload a document' }).waitFor();

    // No file and a bad e-mail: each message sits next to its field.
    await page.getByLabel('Recipient name').fill('Ann Signer');
    await page.getByLabel('Recipient e-mail').fill('not-an-email');
    await page.getByRole('button', { name: 'Upload and continue' }).click();
    await expect
      .poll(() => page.getByLabel('Recipient e-mail').getAttribute('aria-invalid'))
      .toBe('true');
    await expect(page.getByLabel('PDF file').getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshotPage(page, 'upload-errors');

    await page.getByLabel('Recipient e-mail').fill('ann@example.com');
    await page.getByLabel('Document name').fill('Lease agreement');
    await page.getByLabel('PDF file').setInputFiles({
      name: 'lease.pdf',
      mimeType: 'application/pdf',
      buffer: makePdf({ pages: 2, title: 'Lease' }),
    });
    await page.getByRole('button', { name: 'Upload and continue' }).click();
    // The guided flow's next step adds the second signee; the document's page comes after.
    await page.getByRole('heading', { level: 1, name: 'Recipients: Lease agreement' }).waitFor();
    const add = page.getByRole('group', { name: 'Add a signee' });
    await add.getByLabel('Name').fill('Ben Signer');
    await add.getByLabel('E-mail').fill('ben@example.com');
    await add.getByRole('button', { name: 'Add signee' }).click();
    await page.getByRole('group', { name: 'Signee 2: Ben Signer' }).waitFor();
    await page.getByRole('link', { name: 'Finish later' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lease agreement' }).waitFor();
    const documentId = page.url().split('/').pop() ?? '';
    const state = async () =>
      (await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${documentId}`)).body;
    expect((await state()).document.status).toBe('draft');
    expect((await state()).signees.map((s: { email: string }) => s.email).sort()).toEqual([
      'ann@example.com',
      'ben@example.com',
    ]);

    // Download the original: the link is the service's own signed URL.
    const href = await page
      .getByRole('link', { name: 'Download original PDF' })
      .getAttribute('href');
    expect(href?.startsWith(`${d.ctx.baseUrl}/`)).toBe(true);
    const pdf = await page.evaluate(async (url) => {
      const r = await fetch(url);
      return { type: r.headers.get('content-type'), head: (await r.text()).slice(0, 5) };
    }, href ?? '');
    expect(pdf).toEqual({ type: 'application/pdf', head: '%PDF-' });

    await page.getByRole('button', { name: 'Send for signing' }).click();
    // No field is placed: sending asks first (issue 50).
    await page.getByRole('button', { name: 'Send anyway' }).click();
    await page.getByRole('heading', { name: 'Delivery results' }).waitFor();
    const results = await page.locator('section', { hasText: 'Delivery results' }).textContent();
    expect(results).toContain('ann@example.com');
    expect(results).toContain('invitation e-mailed');
    expect((await state()).document.status).toBe('in_process');
    await page.getByRole('list').filter({ hasText: /sent/i }).first().waitFor();
    // The timeline reloads after the status notice: wait for it rather than read it once.
    await page.locator('.timeline').getByText(/sent/i).first().waitFor();
    // People, not internal ids: the owner's own steps say "you", the e-mails name the signee.
    const timeline = (await page.locator('.timeline').textContent()) ?? '';
    expect(timeline).toContain(`you (${owner.email})`);
    expect(timeline).toContain('ann@example.com');
    expect(timeline).not.toMatch(/user:|signee:/);
    // Each e-mail names its kind and recipient, in the timeline and under its signee.
    await page.locator('.timeline').getByText('invitation to ben@example.com').waitFor();
    expect(await page.locator('.timeline').textContent()).toContain(
      'e-mailed: invitation to ann@example.com',
    );
    await screenshotPage(page, 'document-detail');
    await page.setViewportSize(VIEWPORTS.phone);
    await expectNoSidewaysScroll(page);
    await page.setViewportSize(VIEWPORTS.desktop);

    // Remind: the first goes out and starts the cooldown; a second is refused and says why.
    await page.getByRole('button', { name: 'Remind' }).click();
    await page.getByText('Reminders sent to the signees whose turn it is.').waitFor();
    expect((await state()).document.reminderCooldownUntil).not.toBeNull();
    await page.getByRole('button', { name: 'Remind' }).click();
    await page.getByText(/Reminding failed/).waitFor();
    // Ann's own timeline: her invitation, then the reminder, each e-mailed.
    const ann = page.getByRole('list', { name: 'Timeline of Ann Signer' });
    await ann.getByText('by you, e-mailed').waitFor();
    expect(await ann.locator('.step-label').allTextContents()).toEqual(['Invited', 'Reminded']);
    expect(await ann.locator('li').first().textContent()).toContain('e-mailed');

    await page.getByRole('button', { name: 'Cancel document' }).click();
    await page.getByRole('button', { name: 'Yes, cancel' }).click();
    await page.getByText('The document is cancelled').waitFor();
    expect((await state()).document.status).toBe('cancelled');
    // The timeline reloads after the status notice: wait for it rather than read it once.
    await page
      .locator('.timeline')
      .getByText(/cancel/i)
      .first()
      .waitFor();

    // The list: 12 more drafts; status filter and cursor paging (10 per page).
    for (let i = 0; i < 12; i++) {
      const r = await quickCreate(d.ctx, owner.apiKey, {
        tenantId: tenant.id,
        extra: { name: `Draft ${i}` },
      });
      expect(r.status).toBe(201);
    }
    await page.getByRole('link', { name: '← All documents' }).click();
    await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(10);
    await screenshotPage(page, 'documents');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => rows.count()).toBe(3);
    await page.getByLabel('Status').selectOption('cancelled');
    await expect.poll(() => rows.count()).toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('Lease agreement');
    expect(page.url()).toContain('status=cancelled');
  });
});
