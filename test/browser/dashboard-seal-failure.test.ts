import { describe, expect, it } from 'vitest';
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

// The login page asks who is logged in before anyone is.
const PROVOKED = /^console: Failed to load resource: .* status of 401 .* @ \S+\/api\/auth\/me$/;

// Issue 46: a document whose seal failed for good shows why, and a button that seals it again.
// How a document gets there is test/signing/seal-failure.test.ts's; here it is put there.
describe.each(ENGINES)('dashboard: a seal that failed on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('shows the reason and seals again with "Retry sealing"', async () => {
    const owner = await createUser(d.ctx, { name: 'Sam Sealer' });
    const tenant = await createTenant(d.ctx, owner.apiKey, 'Seal Co');
    const created = await quickCreate(d.ctx, owner.apiKey, {
      tenantId: tenant.id,
      file: makePdf({ pages: 1, title: 'Supply contract' }),
      signees: [{ email: 'lee@example.com', name: 'Lee Signer' }],
      extra: { name: 'Supply contract' },
    });
    const id = created.body.document.id as string;
    await api(d.ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    await d.ctx.db.kysely
      .updateTable('documents')
      .set({ status: 'seal_failed', seal_failure: 'storage answered 503 through every attempt' })
      .where('id', '=', id)
      .execute();

    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/documents/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Supply contract' }).waitFor();
    const alert = page.getByRole('alert').filter({ hasText: 'Sealing failed' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('storage answered 503 through every attempt');
    await expectNoSidewaysScroll(page);
    await screenshotPage(page, 'seal-failed');

    await page.getByRole('button', { name: 'Retry sealing' }).click();
    await page.getByText('Sealing again').waitFor();
    await page.getByRole('button', { name: 'Retry sealing' }).waitFor({ state: 'detached' });
    // The job the retry queued seals it.
    const end = Date.now() + 20_000;
    let status = '';
    while (Date.now() < end && status !== 'signed') {
      status = (await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document.status;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('signed');
  });
});
