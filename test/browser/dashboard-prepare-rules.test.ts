import { describe, expect, it } from 'vitest';
import { waitForVisiblePagesDrawn } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { openLoggedIn, useDashboard } from './dashboard-support.js';

// Answers this test provokes on purpose: the 401 of logging in, a pattern RE2 does not take (422).
const PROVOKED = /^console: Failed to load resource: .* status of (401|422) /;

describe.each(ENGINES)('dashboard: radio, number, validation and conditions on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('adds the new types from the palette with their settings, and saves them', async () => {
    const owner = await createUser(d.ctx, { name: 'Pia Preparer' });
    const tenantId = (await createTenant(d.ctx, owner.apiKey, 'Rules Co')).id;
    const signee = { name: 'Ann Signer', email: `ann-${engine}@example.com` };
    const created = await quickCreate(d.ctx, owner.apiKey, {
      tenantId,
      file: makePdf({ pages: 1, title: 'Order' }),
      signees: [signee],
      extra: { name: 'Order form' },
    });
    const id = created.body.document.id as string;
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/documents/${id}/prepare`);
    await page.getByRole('heading', { level: 1, name: 'Prepare fields: Order form' }).waitFor();
    await waitForVisiblePagesDrawn(page);
    const add = (type: string) =>
      page.getByRole('button', { name: `Add ${type} field for ${signee.name}` }).click();

    await add('Signature');
    await add('Radio buttons');
    await page.getByLabel('Label', { exact: true }).fill('Plan');
    await page.getByLabel('Options', { exact: true }).fill('Basic\nPro');
    await add('Number');
    await page.getByLabel('Label', { exact: true }).fill('Seats');
    await page.getByLabel('Minimum').fill('1');
    await page.getByLabel('Maximum').fill('500');
    await add('Text');
    await page.getByLabel('Label', { exact: true }).fill('Company');
    await page.getByLabel('Format').selectOption('digits');
    await page.getByLabel(/^Pattern/).fill('(a');
    await page.getByLabel('Shown').selectOption('Plan');
    await page.getByLabel('… is').selectOption('Pro');

    // A pattern RE2 refuses: the service's message is shown at the field's Validation.
    await page.getByRole('button', { name: 'Save fields' }).click();
    await page.getByText(/The fields were not saved: 1 problem/).waitFor();
    await page
      .getByText(/not a valid pattern \(RE2 syntax\)/)
      .first()
      .waitFor();

    await page.getByLabel(/^Pattern/).fill('[0-9]{8}');
    await page.getByRole('button', { name: 'Save fields' }).click();
    await expect
      .poll(() => page.locator('.save-state').textContent(), { timeout: 10_000 })
      .toBe('All changes saved');
    const saved = await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${id}/fields`);
    expect(saved.body.fields).toMatchObject([
      { type: 'signature' },
      { type: 'radio', label: 'Plan', options: ['Basic', 'Pro'] },
      { type: 'number', label: 'Seats', min: 1, max: 500, decimals: null },
      {
        type: 'text',
        label: 'Company',
        validation: { format: 'digits', pattern: '[0-9]{8}' },
        showIf: { field: 'Plan', equals: 'Pro' },
      },
    ]);
  }, 120_000);
});
