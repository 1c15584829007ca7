import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotBothWidths, VIEWPORTS, waitForVisiblePagesDrawn } from '../helpers/browser.js';
import { ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { valuesByLabel } from '../helpers/signing.js';
import {
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  useDashboard,
} from './dashboard-support.js';

// Answers this test provokes on purpose: the 401 of logging in, a CSV with a bad header (422).
const PROVOKED = /^console: Failed to load resource: .* status of (401|422) /;

type Role = { id: string; name: string };
type TemplateField = { roleId: string; type: string; page: number; label: string | null };

const fieldsOfType = (page: Page, type: string) =>
  page.locator(`.prepare-field-wrap[data-field-type="${type}"]`);

/** A template made through the API: a PDF, its roles and fields placed for them. */
async function templateByApi(
  ctx: TestContext,
  apiKey: string,
  tenantId: string,
  template: { name: string; roles: { name: string }[] },
  fields: unknown[],
): Promise<{ template: { id: string; roles: Role[] } }> {
  const form = new FormData();
  form.append('tenantId', tenantId);
  form.append('template', JSON.stringify(template));
  form.append('fields', JSON.stringify(fields));
  form.append('file', new Blob([new Uint8Array(makePdf())], { type: 'application/pdf' }), 't.pdf');
  const res = await fetch(`${ctx.baseUrl}/api/templates`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, accept: 'application/json' },
    body: form,
  });
  expect(res.status).toBe(201);
  return res.json();
}

describe.each(ENGINES)('dashboard: templates on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('creates a two-role template, places a signature per role, uses it to send, and publishes a direct link', async () => {
    const owner = await createUser(d.ctx, { name: 'Tess Templates' });
    const tenant = await createTenant(d.ctx, owner.apiKey, 'Lease Co');
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);

    // The Templates section, from the header's navigation.
    await page.getByRole('navigation').getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
    await page.getByRole('heading', { name: 'No templates yet' }).waitFor();
    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByRole('heading', { level: 1, name: 'New template' }).waitFor();
    // Sent empty: each of the service's messages sits at its field.
    await page.getByRole('button', { name: 'Create template' }).click();
    for (const label of ['PDF file', 'Template name', 'Role 1']) {
      await expect
        .poll(() => page.getByLabel(label, { exact: true }).getAttribute('aria-invalid'))
        .toBe('true');
    }
    await page.getByText('Role 1 must not be empty.').waitFor();
    await page.getByLabel('PDF file').setInputFiles({
      name: 'lease.pdf',
      mimeType: 'application/pdf',
      buffer: makePdf({ pages: 2, title: 'Lease' }),
    });
    await page.getByLabel('Template name').fill('Lease');
    await page.getByLabel('Role 1', { exact: true }).fill('Landlord');
    await page.getByRole('button', { name: 'Add a role' }).click();
    await page.getByLabel('Role 2', { exact: true }).fill('Tenant');
    await screenshotPage(page, 'template-new');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lease' }).waitFor();
    const templateId = page.url().split('/').pop() ?? '';
    const state = async () =>
      (await api(d.ctx, owner.apiKey, 'GET', `/api/templates/${templateId}`)).body as {
        template: { roles: Role[]; directLink: { enabled: boolean; url: string | null } };
        fields: TemplateField[];
      };
    const roles = (await state()).template.roles;
    expect(roles.map((r) => r.name)).toEqual(['Landlord', 'Tenant']);

    // The documents' field editor, with the roles in place of signees.
    await page.getByRole('link', { name: 'Place fields' }).click();
    await page.getByRole('heading', { level: 1, name: 'Place fields: Lease' }).waitFor();
    await page.locator('.prepare-sheet[data-page-number="2"]').waitFor();
    await waitForVisiblePagesDrawn(page);
    await page
      .getByText(/Without fields, the signees of each document made from it sign on a page/)
      .waitFor();
    await page.getByRole('button', { name: 'Add Signature field for Landlord' }).click();
    await page.getByRole('button', { name: 'Add Signature field for Tenant' }).click();
    await expect.poll(() => fieldsOfType(page, 'signature').count()).toBe(2);
    // A labelled text field for the landlord, to prefill when the template is used.
    await page.getByRole('button', { name: 'Add Text field for Landlord' }).click();
    await page.getByLabel('Label', { exact: true }).fill('Monthly rent');
    await expect(page.getByLabel('Role', { exact: true }).inputValue()).resolves.toBe(roles[0].id);
    await page.getByRole('button', { name: 'Save fields' }).click();
    await expect
      .poll(() => page.locator('.save-state').textContent(), { timeout: 10_000 })
      .toBe('All changes saved');
    await screenshotBothWidths(page, 'dashboard-template-prepare');
    const placed = (await state()).fields;
    expect(placed.map((f) => [f.type, f.roleId, f.label])).toEqual([
      ['signature', roles[0].id, null],
      ['signature', roles[1].id, null],
      ['text', roles[0].id, 'Monthly rent'],
    ]);

    // Use template: a person per role, the rent prefilled, created and sent at once.
    await page.getByRole('link', { name: '← Back to the template' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lease' }).waitFor();
    const use = page.getByRole('region', { name: 'Use template' });
    await use.getByLabel('Landlord name').fill('Lara Landlord');
    await use.getByLabel('Landlord e-mail').fill(`lara-${engine}@example.com`);
    await use.getByLabel('Tenant name').fill('Tom Tenant');
    await use.getByLabel('Tenant e-mail').fill(`tom-${engine}@example.com`);
    await use.getByLabel('Tenant language').selectOption('de');
    await use.getByLabel('Monthly rent').fill('900 EUR');
    await screenshotPage(page, 'template-detail');
    await page.setViewportSize({ width: 360, height: 780 });
    await expectNoSidewaysScroll(page);
    await page.setViewportSize(VIEWPORTS.desktop);
    await use.getByRole('button', { name: 'Create and send' }).click();
    await page.getByRole('heading', { name: 'Delivery results' }).waitFor();
    await page.getByText('Made from the template “Lease” and sent for signing.').waitFor();
    const documentId = new URL(page.url()).pathname.split('/').pop() ?? '';
    expect(new URL(page.url()).pathname).toBe(`/app/documents/${documentId}`);
    const made = (await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${documentId}`)).body;
    expect(made.document.status).toBe('in_process');
    expect(made.document.templateId).toBe(templateId);
    expect(made.signees.map((s: { name: string }) => s.name)).toEqual([
      'Lara Landlord',
      'Tom Tenant',
    ]);
    expect(made.signees[1].language).toBe('de');
    expect(made.fields.find((f: { type: string }) => f.type === 'text').value).toBe('900 EUR');
    await expect(page.locator('.badge-in_process').first().textContent()).resolves.toBe(
      'in process',
    );

    // Direct link: refused while the template has two roles, so the tenant role goes (its
    // signature field with it, after a question), then the link is enabled and shown.
    await page.goto(`${d.ctx.baseUrl}/app/templates/${templateId}`);
    const link = page.getByRole('region', { name: 'Direct link' });
    await link.getByText('A direct link needs a template with exactly one role').waitFor();
    await expect(link.getByRole('button', { name: 'Enable' }).isDisabled()).resolves.toBe(true);
    const settings = page.getByRole('region', { name: 'Settings and roles' });
    await settings.getByRole('button', { name: 'Remove role 2' }).click();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Saving removes 1 field placed for the removed role. Save?').waitFor();
    await settings.getByRole('button', { name: 'Yes, save' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect((await state()).template.roles.map((r) => r.name)).toEqual(['Landlord']);
    expect((await state()).fields).toHaveLength(2);
    await link.getByRole('button', { name: 'Enable' }).click();
    const address = link.getByLabel('Direct link address');
    await address.waitFor();
    const url = await address.inputValue();
    expect(url).toMatch(new RegExp(`^${d.ctx.baseUrl}/t/dl_[\\w-]+$`));
    expect((await state()).template.directLink).toEqual({ enabled: true, url });
    await link.getByRole('button', { name: 'Copy link' }).waitFor();
    await screenshotPage(page, 'template-direct-link');
    // The address opens the visitor's form of the signing page.
    const visitor = await page.context().newPage();
    await visitor.goto(url);
    await visitor.getByLabel('Your name').waitFor();
    await visitor.close();
    await link.getByRole('button', { name: 'Disable' }).click();
    await link.getByRole('button', { name: 'Yes, disable' }).click();
    await link.getByRole('button', { name: 'Enable' }).waitFor();
    expect((await state()).template.directLink.enabled).toBe(false);

    // The list finds it by name; Save as template on a draft makes another.
    const draft = await quickCreate(d.ctx, owner.apiKey, { tenantId: tenant.id });
    expect(draft.status).toBe(201);
    await page.goto(`${d.ctx.baseUrl}/app/documents/${draft.body.document.id}`);
    await page.getByRole('button', { name: 'Save as template' }).click();
    await page.getByLabel('Template name').fill('Consulting agreement');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByRole('heading', { level: 1, name: 'Consulting agreement' }).waitFor();
    await page.getByText('Alice Example, Bob Example').waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('link', { name: 'Consulting agreement' }).waitFor();
    await page.getByLabel('Search templates').fill('lea');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect
      .poll(() => page.getByRole('link', { name: 'Consulting agreement' }).count())
      .toBe(0);
    await page.getByRole('link', { name: 'Lease' }).waitFor();
    await screenshotPage(page, 'templates');
    await page.setViewportSize({ width: 360, height: 780 });
    await expectNoSidewaysScroll(page);
  });

  it('prefills a radio and a number: the CSV header names them, the form offers the options and checks the number', async () => {
    const owner = await createUser(d.ctx, { name: 'Rita Radio' });
    const tenant = await createTenant(d.ctx, owner.apiKey, 'Radio Co');
    const box = { page: 1, width: 150, height: 24 };
    const { template } = await templateByApi(
      d.ctx,
      owner.apiKey,
      tenant.id,
      { name: 'Order', roles: [{ name: 'Client' }] },
      [
        { role: 0, type: 'signature', x: 50, y: 100, ...box, height: 40 },
        { role: 0, type: 'radio', label: 'Plan', options: ['Basic', 'Pro'], x: 50, y: 200, ...box },
        { role: 0, type: 'number', label: 'Seats', min: 1, max: 500, x: 50, y: 300, ...box },
      ],
    );
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/templates/${template.id}`);
    const header = page
      .getByRole('region', { name: 'Bulk send' })
      .getByRole('link', { name: 'Download CSV header' });
    const href = (await header.getAttribute('href')) ?? '';
    expect(decodeURIComponent(href.replace(/^data:text\/csv;charset=utf-8,/, ''))).toBe(
      'Client.name,Client.email,Client.language,externalId,Plan,Seats\r\n',
    );

    const use = page.getByRole('region', { name: 'Use template' });
    await use.getByLabel('Client name').fill('Carl Client');
    await use.getByLabel('Client e-mail').fill(`carl-${engine}@example.com`);
    const options = await use.getByLabel('Plan').locator('option').allTextContents();
    expect(options).toEqual(['As placed', 'Basic', 'Pro']);
    await use.getByLabel('Plan').selectOption('Pro');
    // The service checks the number's bounds: 600 is refused at the field, 12 taken.
    await use.getByLabel('Seats').fill('600');
    await use.getByRole('button', { name: 'Create and send' }).click();
    await use.getByText(/must be at most 500/).waitFor();
    await use.getByLabel('Seats').fill('12');
    await use.getByRole('button', { name: 'Create and send' }).click();
    await page.getByRole('heading', { name: 'Delivery results' }).waitFor();
    const documentId = new URL(page.url()).pathname.split('/').pop() ?? '';
    const made = (await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${documentId}`)).body;
    const values = valuesByLabel(made.fields);
    expect(values).toMatchObject({ Plan: 'Pro', Seats: '12' });
  });

  it('bulk sends a 20-row CSV with two bad rows: progress to completed, 18 sent, the two failed rows with their reasons', async () => {
    const owner = await createUser(d.ctx, { name: 'Bill Bulk' });
    const tenant = await createTenant(d.ctx, owner.apiKey, 'Bulk Co');
    const box = { page: 1, width: 150, height: 40 };
    const { template } = await templateByApi(
      d.ctx,
      owner.apiKey,
      tenant.id,
      { name: 'Membership', roles: [{ name: 'Member' }, { name: 'Witness' }] },
      [
        { role: 0, type: 'signature', x: 50, y: 100, ...box },
        { role: 1, type: 'signature', x: 50, y: 200, ...box },
        { role: 0, type: 'text', label: 'Member number', x: 50, y: 300, ...box, height: 18 },
      ],
    );
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/templates/${template.id}`);
    const bulk = page.getByRole('region', { name: 'Bulk send' });

    // The header for this template, made in the page.
    const header = bulk.getByRole('link', { name: 'Download CSV header' });
    const href = (await header.getAttribute('href')) ?? '';
    expect(decodeURIComponent(href.replace(/^data:text\/csv;charset=utf-8,/, ''))).toBe(
      'Member.name,Member.email,Member.language,Witness.name,Witness.email,Witness.language,externalId,Member number\r\n',
    );

    // A header the template does not know is refused whole, each problem by its column.
    await bulk.getByLabel('CSV file').setInputFiles({
      name: 'typo.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'Member.name,Member.emial,Witness.name,Witness.email\nA,a@example.com,B,b@example.com\n',
      ),
    });
    await bulk.getByRole('button', { name: 'Start bulk send' }).click();
    const refused = bulk.getByRole('alert');
    await refused.getByText(/^Nothing was sent: /).waitFor();
    await refused.getByText(/^Column “Member\.emial”: /).waitFor();
    await refused.getByText('Role Member needs a column Member.email.').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/templates/${template.id}`);

    // 20 rows; row 5 has an invalid e-mail and row 12 no member name.
    const rows = Array.from({ length: 20 }, (_, i) => {
      const n = i + 1;
      const email = n === 5 ? 'not-an-email' : `member${n}-${engine}@example.com`;
      const name = n === 12 ? '' : `Member ${n}`;
      return `${name},${email},,Witness ${n},witness${n}-${engine}@example.com,de,ref-${n},M-${n}`;
    });
    const csv = `Member.name,Member.email,Member.language,Witness.name,Witness.email,Witness.language,externalId,Member number\n${rows.join('\n')}\n`;
    await bulk.getByLabel('CSV file').setInputFiles({
      name: 'members.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await bulk.getByRole('button', { name: 'Start bulk send' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bulk send' }).waitFor();
    const bulkSendId = new URL(page.url()).pathname.split('/').pop() ?? '';
    expect(new URL(page.url()).pathname).toBe(`/app/bulk-sends/${bulkSendId}`);

    // Polled every second until completed: the bar full, 18 created and 2 failed.
    await page.getByText('18 of 20 created, 2 failed.').waitFor({ timeout: 60_000 });
    const progress = page.locator('progress');
    await expect(progress.getAttribute('max')).resolves.toBe('20');
    await expect(progress.getAttribute('value')).resolves.toBe('20');
    await expect(page.locator('.badge').first().textContent()).resolves.toBe('completed');
    const failed = page.getByRole('region', { name: 'Failed rows' }).locator('tbody tr');
    await expect.poll(() => failed.count()).toBe(2);
    await expect(failed.nth(0).locator('th').textContent()).resolves.toBe('5');
    await expect(failed.nth(0).locator('td').first().textContent()).resolves.toMatch(
      /Member\.email/,
    );
    await expect(failed.nth(1).locator('th').textContent()).resolves.toBe('12');
    await expect(failed.nth(1).locator('td').first().textContent()).resolves.toMatch(
      /Member\.name/,
    );
    await page.getByRole('link', { name: 'Download failed rows' }).waitFor();

    const state = await api(d.ctx, owner.apiKey, 'GET', `/api/bulk-sends/${bulkSendId}`);
    expect(state.body.bulkSend).toMatchObject({
      status: 'completed',
      total: 20,
      created: 18,
      failed: 2,
    });
    const sent = await api(
      d.ctx,
      owner.apiKey,
      'GET',
      `/api/documents?tenantId=${tenant.id}&status=in_process&limit=100`,
    );
    expect(sent.body.documents).toHaveLength(18);
    await screenshotPage(page, 'bulk-send');
    await page.setViewportSize({ width: 360, height: 780 });
    await expectNoSidewaysScroll(page);

    // The template's page lists it among its bulk sends.
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.getByRole('link', { name: '← Back to the template' }).click();
    await bulk.getByText('18 of 20 created, 2 failed').waitFor();
  });
});
