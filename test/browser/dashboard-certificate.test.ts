import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { openLoggedIn, useDashboard } from './dashboard-support.js';

// The login page asks who is logged in before anyone is.
const PROVOKED = /^console: Failed to load resource: .* status of 401 .* @ \S+\/api\/auth\/me$/;

describe.each(ENGINES)('dashboard: audit certificate on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('offers "Download audit certificate (PDF)" once sent, and it downloads the sealed PDF', async () => {
    const owner = await createUser(d.ctx, { name: 'Cora Certificate' });
    const tenant = await createTenant(d.ctx, owner.apiKey, 'Proof Co');
    const create = async (name: string) => {
      const created = await quickCreate(d.ctx, owner.apiKey, {
        tenantId: tenant.id,
        file: makePdf({ pages: 1, title: name }),
        filename: 'loan agreement.pdf',
        signees: [{ email: 'lee@example.com', name: 'Lee Signer' }],
        extra: { name },
      });
      expect(created.status).toBe(201);
      return created.body.document.id as string;
    };
    const draftId = await create('Loan draft');
    const sentId = await create('Loan agreement');
    const sent = await api(
      d.ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${sentId}/send-for-signing`,
    );
    expect(sent.status).toBe(200);

    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    // A draft has nothing to certify: no such action.
    await page.goto(`${d.ctx.baseUrl}/app/documents/${draftId}`);
    await page.getByRole('heading', { level: 1, name: 'Loan draft' }).waitFor();
    await page.getByRole('link', { name: 'Download original PDF' }).waitFor();
    expect(await page.getByRole('link', { name: 'Download audit certificate (PDF)' }).count()).toBe(
      0,
    );

    await page.goto(`${d.ctx.baseUrl}/app/documents/${sentId}`);
    await page.getByRole('heading', { level: 1, name: 'Loan agreement' }).waitFor();
    const link = page.getByRole('link', { name: 'Download audit certificate (PDF)' });
    expect(await link.getAttribute('href')).toBe(`/api/documents/${sentId}/certificate`);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('loan agreement-audit-certificate.pdf');
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.toString('latin1')).toContain('ETSI.CAdES.detached');
  });
});
