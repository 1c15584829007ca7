import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { createUser } from '../helpers/factories.js';
import {
  callApi,
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  useDashboard,
} from './dashboard-support.js';

const PROVOKED = /^console: Failed to load resource: .* status of (40[1349]|422) /;

describe.each(ENGINES)('dashboard: tenants, members and settings on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('creates and switches tenants, manages members and roles, changes settings', async () => {
    const owner = await createUser(d.ctx, { name: 'Olga Owner' });
    const colleague = await createUser(d.ctx, { name: 'Carl Colleague' });
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Tenants' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();

    await page.getByLabel('Tenant name').fill('Acme Legal');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    await page.getByRole('heading', { level: 2, name: 'Acme Legal' }).waitFor();
    await expect.poll(() => page.getByTestId('credit-balance').textContent()).toBe('1000 credits');
    await page.getByLabel('Tenant name').fill('Beta Works');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    await page.getByRole('heading', { level: 2, name: 'Beta Works' }).waitFor();
    const tenants = (await callApi(d.ctx, owner.apiKey, 'GET', '/api/tenants')).body as {
      tenants: { id: string; name: string; role: string }[];
    };
    expect(tenants.tenants.map((t) => [t.name, t.role]).sort()).toEqual([
      ['Acme Legal', 'owner'],
      ['Beta Works', 'owner'],
    ]);
    const acme = tenants.tenants.find((t) => t.name === 'Acme Legal');

    // Switch with the header's selector, and back with the list's button.
    await page.getByLabel('Current tenant').selectOption({ label: 'Acme Legal' });
    await page.getByRole('heading', { level: 2, name: 'Acme Legal' }).waitFor();
    await page.getByRole('button', { name: 'Switch to Beta Works' }).click();
    await page.getByRole('heading', { level: 2, name: 'Beta Works' }).waitFor();
    await page.getByLabel('Current tenant').selectOption({ label: 'Acme Legal' });
    await page.getByRole('heading', { level: 2, name: 'Acme Legal' }).waitFor();

    // Settings: a bad cooldown is explained next to its field; good values are saved.
    await page.getByLabel('Reminder cooldown (minutes)').fill('-5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(() => page.getByLabel('Reminder cooldown (minutes)').getAttribute('aria-invalid'))
      .toBe('true');
    await page.getByLabel('E-mail language').selectOption('de');
    await page.getByLabel(/Invitation e-mails/).uncheck();
    await page.getByLabel(/Signee events/).check();
    await page.getByLabel('Reminder cooldown (minutes)').fill('15');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const settings = await callApi(d.ctx, owner.apiKey, 'GET', `/api/tenants/${acme?.id}/settings`);
    expect(settings.body).toEqual({
      settings: {
        emailLanguage: 'de',
        invitationEmails: false,
        signeeEvents: true,
        reminderCooldownMinutes: 15,
      },
    });

    // Members: an unknown address is refused next to the field; a known one is added.
    await page.getByLabel('Member e-mail').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.locator('.field-error, .form-error').first().waitFor();
    await page.getByLabel('Member e-mail').fill(colleague.email);
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByText('Added Carl Colleague as member.').waitFor();
    await page.getByLabel('Role of Carl Colleague').selectOption('admin');
    await page.getByText('Carl Colleague is now admin.').waitFor();
    const members = async () =>
      (
        (await callApi(d.ctx, owner.apiKey, 'GET', `/api/tenants/${acme?.id}/members`)).body as {
          members: { email: string; role: string }[];
        }
      ).members
        .map((m) => `${m.email}:${m.role}`)
        .sort();
    expect(await members()).toEqual([`${colleague.email}:admin`, `${owner.email}:owner`].sort());
    await screenshotPage(page, 'tenants');
    await page.setViewportSize(VIEWPORTS.phone);
    await expectNoSidewaysScroll(page);
    await page.setViewportSize(VIEWPORTS.desktop);

    await page.getByRole('button', { name: 'Remove Carl Colleague' }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await page.getByText('Removed Carl Colleague.').waitFor();
    expect(await members()).toEqual([`${owner.email}:owner`]);

    // The colleague, a member elsewhere, sees settings read-only.
    const memberPage = await openLoggedIn(d.browser, d.ctx, colleague, d.opened);
    await callApi(d.ctx, owner.apiKey, 'POST', `/api/tenants/${acme?.id}/members`, {
      email: colleague.email,
      role: 'member',
    });
    await memberPage.goto(`${d.ctx.baseUrl}/app/tenants`);
    await memberPage.getByRole('heading', { level: 2, name: 'Acme Legal' }).waitFor();
    await memberPage.getByText('Only owners and admins can change settings.').waitFor();
    await expect(memberPage.getByLabel('E-mail language').isDisabled()).resolves.toBe(true);
    await expect(memberPage.getByRole('button', { name: 'Add member' }).count()).resolves.toBe(0);
  });
});
