import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import {
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  useDashboard,
} from './dashboard-support.js';

const PROVOKED = /^console: Failed to load resource: .* status of (401|409|422) /;

describe.each(ENGINES)('dashboard: editing and organising on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('searches, files into folders by menu and by dragging, pins, and edits a draft', async () => {
    const owner = await createUser(d.ctx, { name: 'Olga Organiser' });
    const tenant = await createTenant(d.ctx, owner.apiKey, 'Filing Co');
    const make = async (name: string, signees: Array<{ email: string; name: string }>) => {
      const r = await quickCreate(d.ctx, owner.apiKey, {
        tenantId: tenant.id,
        signees,
        extra: { name },
      });
      expect(r.status).toBe(201);
      return r.body.document.id as string;
    };
    const lease = await make('Lease Berlin', [{ email: 'zoe@example.com', name: 'Zoë Keller' }]);
    const nda = await make('NDA Acme', [
      { email: 'ann@example.com', name: 'Ann Example' },
      { email: 'bob@example.com', name: 'Bob Example' },
    ]);
    const offer = await make('Offer letter', [{ email: 'cy@example.com', name: 'Cy Young' }]);
    const doc = async (id: string) =>
      (await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body;

    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);

    // Search by a signee's name, any case.
    await page.getByRole('searchbox', { name: 'Search documents' }).fill('ZOË');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('Lease Berlin');
    expect(page.url()).toContain('q=');
    await page.getByRole('searchbox', { name: 'Search documents' }).fill('nothing like it');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('heading', { name: 'No document matches “nothing like it”' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search documents' }).fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(3);

    // Folders: one at the top, one inside it.
    const folders = page.getByRole('navigation', { name: 'Folders' });
    await folders.getByLabel('New folder').fill('Clients');
    await folders.getByRole('button', { name: 'Create folder' }).click();
    await folders.getByRole('button', { name: 'Clients' }).click();
    await page.getByRole('heading', { level: 2, name: 'Clients' }).waitFor();
    await folders.getByLabel('New folder in Clients').fill('Acme');
    await folders.getByRole('button', { name: 'Create folder' }).click();
    await folders.getByRole('button', { name: 'Acme' }).waitFor();
    const listed = (await api(d.ctx, owner.apiKey, 'GET', `/api/tenants/${tenant.id}/folders`)).body
      .folders as Array<{ id: string; name: string; parentId: string | null }>;
    const clients = listed.find((f) => f.name === 'Clients');
    const acme = listed.find((f) => f.name === 'Acme');
    expect(acme?.parentId).toBe(clients?.id);

    // File one document from the row's menu, drag another onto a folder.
    await folders.getByRole('button', { name: 'All documents' }).click();
    await expect.poll(() => rows.count()).toBe(3);
    await page.getByLabel('Move NDA Acme to folder').selectOption({ label: 'Clients' });
    await page.getByText('Moved NDA Acme to Clients.').waitFor();
    expect((await doc(nda)).document.folderId).toBe(clients?.id);
    await rows
      .filter({ hasText: 'Offer letter' })
      .dragTo(folders.getByRole('button', { name: 'Acme' }));
    await page.getByText('Moved Offer letter to Clients / Acme.').waitFor();
    expect((await doc(offer)).document.folderId).toBe(acme?.id);
    await folders.getByRole('button', { name: 'Clients' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('NDA Acme');

    // A folder that holds something is not deleted, and says so.
    await folders.getByRole('button', { name: 'Delete folder Clients' }).click();
    await folders.getByRole('button', { name: 'Yes, delete' }).click();
    await folders.getByText(/still holds documents or folders/).waitFor();

    // Pin, then the pinned view.
    await folders.getByRole('button', { name: 'All documents' }).click();
    await expect.poll(() => rows.count()).toBe(3);
    await page.getByRole('button', { name: 'Pin Lease Berlin' }).click();
    await page.getByText('Pinned Lease Berlin.').waitFor();
    expect((await doc(lease)).document.pinned).not.toBeNull();
    await folders.getByRole('button', { name: 'Pinned' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await screenshotPage(page, 'documents-organised');
    await page.setViewportSize(VIEWPORTS.phone);
    await expectNoSidewaysScroll(page);
    await page.setViewportSize(VIEWPORTS.desktop);

    // Edit the NDA draft: settings, then its signees.
    await page.goto(`${d.ctx.baseUrl}/app/documents/${nda}`);
    await page.getByRole('heading', { level: 1, name: 'NDA Acme' }).waitFor();
    await page.getByLabel('Document name').fill('NDA Acme 2027');
    await page.getByLabel('Message to the signees').fill('Bitte bis Freitag.');
    await page.getByLabel('E-mail language').selectOption('de');
    await page.getByLabel('Signing order').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'NDA Acme 2027' }).waitFor();
    expect((await doc(nda)).document).toMatchObject({
      name: 'NDA Acme 2027',
      signingMessage: 'Bitte bis Freitag.',
      emailLanguage: 'de',
      signingOrderEnabled: true,
    });

    const first = page.getByRole('group', { name: 'Signee 1: Ann Example' });
    await first.getByLabel('E-mail').fill('ann.new@example.com');
    await first.getByLabel('Order').fill('2');
    await first.getByRole('button', { name: 'Save signee' }).click();
    await expect
      .poll(async () => (await doc(nda)).signees[0])
      .toMatchObject({ email: 'ann.new@example.com', signingOrder: 2 });

    const add = page.getByRole('group', { name: 'Add a signee' });
    await add.getByLabel('Name').fill('Carl Example');
    await add.getByLabel('E-mail').fill('not an e-mail');
    await add.getByRole('button', { name: 'Add signee' }).click();
    await expect.poll(() => add.getByLabel('E-mail').getAttribute('aria-invalid')).toBe('true');
    await add.getByLabel('E-mail').fill('carl@example.com');
    await add.getByRole('button', { name: 'Add signee' }).click();
    await page.getByRole('group', { name: 'Signee 3: Carl Example' }).waitFor();

    await page.getByRole('button', { name: 'Remove Bob Example' }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await page.getByRole('group', { name: 'Signee 2: Carl Example' }).waitFor();
    expect((await doc(nda)).signees.map((s: { email: string }) => s.email)).toEqual([
      'ann.new@example.com',
      'carl@example.com',
    ]);
    // The timeline tells the edits.
    await page.locator('.timeline').getByText('signee removed').waitFor();
    await screenshotPage(page, 'document-edit');
    await page.setViewportSize(VIEWPORTS.phone);
    await expectNoSidewaysScroll(page);
  });
});
