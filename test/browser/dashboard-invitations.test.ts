import { describe, expect, it } from 'vitest';
import { openRecordedPage, VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';
import {
  callApi,
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  useDashboard,
} from './dashboard-support.js';

// The invitation page asks who is logged in before anyone is (401); the dev mailbox's page has
// no favicon.
const PROVOKED = /^console: Failed to load resource: .* status of 401 |favicon\.ico$/;

describe.each(ENGINES)('dashboard: member invitations on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('owner invites, the invitee opens the e-mailed link, logs in, accepts and is in', async () => {
    const owner = await createUser(d.ctx, { name: 'Olga Owner' });
    const invitee = await createUser(d.ctx, { name: 'Ivan Invitee' });
    const stranger = await createUser(d.ctx, { name: 'Sam Stranger' });
    const tenant = await createTenant(d.ctx, owner.apiKey, 'Acme Legal');

    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/workspace`);
    await page.getByRole('heading', { level: 2, name: 'Acme Legal' }).waitFor();
    await page.getByLabel('Member e-mail').fill(invitee.email);
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${invitee.email} (admin).`).waitFor();
    await page
      .getByRole('list', { name: 'Pending invitations' })
      .getByText(invitee.email)
      .waitFor();
    // Nothing changed yet: the invitee is not a member before accepting.
    const before = await callApi(d.ctx, invitee.apiKey, 'GET', `/api/tenants/${tenant.id}`);
    expect(before.status).toBe(404);

    // The invitee, not logged in, finds the e-mail in the dev mailbox and opens its link.
    const recorded = await openRecordedPage(d.browser, VIEWPORTS.desktop);
    d.opened.push(recorded);
    const guest = recorded.page;
    await guest.goto(`${d.ctx.baseUrl}/dev/mailbox?to=${encodeURIComponent(invitee.email)}`);
    await guest.locator('a[href^="/dev/mailbox/"]').first().click();
    const link = await guest
      .frameLocator('iframe')
      .locator('a[href*="/invitations/"]')
      .first()
      .getAttribute('href');
    expect(link?.startsWith(`${d.ctx.baseUrl}/invitations/iv_`)).toBe(true);
    await guest.goto(link ?? '');
    await guest.getByRole('heading', { level: 1, name: 'Join Acme Legal' }).waitFor();
    await guest.getByText('Olga Owner', { exact: true }).waitFor();
    await screenshotPage(guest, 'invitation');
    await guest.setViewportSize(VIEWPORTS.phone);
    await expectNoSidewaysScroll(guest);
    await guest.setViewportSize(VIEWPORTS.desktop);

    // Logged in as someone else, the page says whose invitation it is and offers to log out.
    const login = async (user: { email: string; password: string }) => {
      await guest.getByLabel('E-mail').fill(user.email);
      await guest.getByLabel('Password').fill(user.password);
      await guest.getByRole('button', { name: 'Log in' }).click();
    };
    await login(stranger);
    await guest.getByText(`This invitation is for ${invitee.email}`, { exact: false }).waitFor();
    await expect(guest.getByRole('button', { name: 'Accept invitation' }).count()).resolves.toBe(0);
    await guest.getByRole('button', { name: 'Log out' }).click();

    await login(invitee);
    await guest.getByRole('button', { name: 'Accept invitation' }).click();
    await guest.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
    await guest.getByRole('heading', { level: 2, name: 'Acme Legal' }).waitFor();
    const after = await callApi(d.ctx, invitee.apiKey, 'GET', `/api/tenants/${tenant.id}`);
    expect(after.body).toMatchObject({ membership: { userId: invitee.id, role: 'admin' } });

    // The link is used: opening it again says so.
    await guest.goto(link ?? '');
    await guest.getByText('This invitation has already been accepted.').waitFor();

    // The owner's list: the invitee is a member, the invitation no longer pending.
    await page.reload();
    await page.getByLabel('Role of Ivan Invitee').waitFor();
    await expect(page.getByRole('list', { name: 'Pending invitations' }).count()).resolves.toBe(0);
  });
});
