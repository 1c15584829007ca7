import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../helpers/browser.js';
import { ENGINES, type TestContext } from '../helpers/context.js';
import { createUser } from '../helpers/factories.js';
import {
  callApi,
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  useDashboard,
} from './dashboard-support.js';

const PROVOKED = /^console: Failed to load resource: .* status of (40[1349]|422) /;

/** The token of the newest invitation link e-mailed to an address (the dev mailbox). */
async function invitationToken(ctx: TestContext, email: string): Promise<string> {
  const row = await ctx.db.kysely
    .selectFrom('emails')
    .select('text')
    .where('to_address', '=', email)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const token = /\/invitations\/(iv_[A-Za-z0-9_-]+)/.exec(row.text)?.[1];
  if (!token) throw new Error('no invitation link in e-mail');
  return token;
}

describe.each(ENGINES)('dashboard: tenants, members and settings on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('creates and switches tenants, manages members and roles, changes settings', async () => {
    const owner = await createUser(d.ctx, { name: 'Olga Owner' });
    const colleague = await createUser(d.ctx, { name: 'Carl Colleague' });
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Workspace' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();

    await page.getByLabel('Name of the new workspace').fill('Acme Legal');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('heading', { level: 2, name: 'Acme Legal' }).waitFor();
    await expect.poll(() => page.getByTestId('credit-balance').textContent()).toBe('1000 credits');
    await page.getByLabel('Name of the new workspace').fill('Beta Works');
    await page.getByRole('button', { name: 'Create workspace' }).click();
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
    await page.getByLabel('Current workspace').selectOption({ label: 'Acme Legal' });
    await page.getByRole('heading', { level: 2, name: 'Acme Legal' }).waitFor();
    await page.getByRole('button', { name: 'Switch to Beta Works' }).click();
    await page.getByRole('heading', { level: 2, name: 'Beta Works' }).waitFor();
    await page.getByLabel('Current workspace').selectOption({ label: 'Acme Legal' });
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
        // Left alone on the form: their defaults stay.
        expiryDays: null,
        webhookEvents: [],
        reminderFirstAfterDays: null,
        reminderEveryDays: null,
        reminderMax: 3,
        embedOrigins: [],
        brandName: null,
        brandColor: null,
      },
    });

    // Members: a malformed address is refused next to the field; adding is inviting, and the
    // colleague becomes a member only once they accept.
    await page.getByLabel('Member e-mail').fill('not an address');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.locator('.field-error, .form-error').first().waitFor();
    await page.getByLabel('Member e-mail').fill(colleague.email);
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${colleague.email} (member).`).waitFor();
    await page.getByRole('button', { name: `Revoke invitation to ${colleague.email}` }).waitFor();
    const accepted = await callApi(
      d.ctx,
      colleague.apiKey,
      'POST',
      `/api/invitations/${await invitationToken(d.ctx, colleague.email)}/accept`,
    );
    expect(accepted.status).toBe(200);
    await page.reload();
    await expect
      .poll(() =>
        page.getByRole('button', { name: `Revoke invitation to ${colleague.email}` }).count(),
      )
      .toBe(0);
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

    // A pending invitation is listed until it is revoked; its link then no longer works.
    await page.getByLabel('Member e-mail').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('button', { name: 'Revoke invitation to nobody@example.com' }).click();
    await page.getByText('Invitation to nobody@example.com revoked.').waitFor();
    const pending = await callApi(
      d.ctx,
      owner.apiKey,
      'GET',
      `/api/tenants/${acme?.id}/invitations`,
    );
    expect(pending.body).toEqual({ invitations: [] });

    // The colleague, a member elsewhere, sees settings read-only.
    const memberPage = await openLoggedIn(d.browser, d.ctx, colleague, d.opened);
    await callApi(d.ctx, owner.apiKey, 'POST', `/api/tenants/${acme?.id}/members`, {
      email: colleague.email,
      role: 'member',
    });
    const token = await invitationToken(d.ctx, colleague.email);
    await callApi(d.ctx, colleague.apiKey, 'POST', `/api/invitations/${token}/accept`);
    await memberPage.goto(`${d.ctx.baseUrl}/app/workspace`);
    await memberPage.getByRole('heading', { level: 2, name: 'Acme Legal' }).waitFor();
    await memberPage.getByText('Only owners and admins can change settings.').waitFor();
    await expect(memberPage.getByLabel('E-mail language').isDisabled()).resolves.toBe(true);
    await expect(memberPage.getByRole('button', { name: 'Send invitation' }).count()).resolves.toBe(
      0,
    );
  });
});
