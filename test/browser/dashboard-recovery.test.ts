import { describe, expect, it } from 'vitest';
import { openRecordedPage, VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { createUser } from '../helpers/factories.js';
import { openLoggedIn, screenshotPage, useDashboard } from './dashboard-support.js';

// Chromium logs the API's own answers to a provoked mistake as failed loads: the weak password
// (422), the spent link (400), and the old session after the reset (401).
// The server-rendered mailbox has no icon: favicon.ico is a 404.
const PROVOKED = /^console: Failed to load resource: .* status of (40[01]|422) |favicon\.ico$/;

describe.each(ENGINES)('dashboard: account recovery on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('resets a forgotten password through the e-mailed link, then logs in with it', async () => {
    const user = await createUser(d.ctx, { name: 'Fran Forgetful' });
    // Logged in elsewhere: the reset ends that session too.
    const elsewhere = await openLoggedIn(d.browser, d.ctx, user, d.opened);

    const recorded = await openRecordedPage(d.browser, VIEWPORTS.desktop);
    d.opened.push(recorded);
    const { page } = recorded;
    await page.goto(`${d.ctx.baseUrl}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toContain(user.email);
    await screenshotPage(page, 'forgot-password-sent');

    // The dev mailbox, the e-mail, then the link inside it.
    await page.getByRole('main').getByRole('link', { name: 'dev mailbox' }).click();
    await page.locator('a[href^="/dev/mailbox/"]').first().click();
    const link = await page
      .frameLocator('iframe')
      .locator('a[href*="/reset-password?token="]')
      .first()
      .getAttribute('href');
    expect(link?.startsWith(`${d.ctx.baseUrl}/reset-password?token=pr_`)).toBe(true);
    await page.goto(link ?? '');
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    // The token leaves the address bar (and so the history) once the page has read it.
    await expect.poll(() => new URL(page.url()).search).toBe('');

    const newPassword = page.getByLabel('New password', { exact: true });
    await newPassword.fill('short');
    await page.getByLabel('Repeat the new password').fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => newPassword.getAttribute('aria-invalid')).toBe('true');
    const errorId = (await newPassword.getAttribute('aria-describedby')) ?? '';
    // The wording is the dashboard's; the point is the message is tied to its own field.
    await expect(
      page.locator(`[id="${errorId.split(' ').at(-1)}"]`).textContent(),
    ).resolves.toMatch(/at least 10 characters/);

    await newPassword.fill('a new and longer password');
    await page.getByLabel('Repeat the new password').fill('a new and longer password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toMatch(/logged out/);
    await screenshotPage(page, 'password-changed');

    // The session that was open elsewhere has ended.
    const before = await elsewhere.evaluate(async () => (await fetch('/api/auth/me')).status);
    expect(before).toBe(401);

    // Log in right here, the address already filled in.
    await expect(page.getByLabel('E-mail').inputValue()).resolves.toBe(user.email);
    await page.getByLabel('Password', { exact: true }).fill('a new and longer password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
    const me = await page.evaluate(async () => (await fetch('/api/auth/me')).json());
    expect(me.user).toMatchObject({ email: user.email, name: 'Fran Forgetful' });

    // The link worked once.
    await page.goto(link ?? '');
    await page.getByLabel('New password', { exact: true }).fill('yet another password');
    await page.getByLabel('Repeat the new password').fill('yet another password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /invalid, expired or already used/,
    );
    await page.getByRole('link', { name: 'Ask for a new one' }).waitFor();
  });

  it('resends the verification e-mail from the banner of an unverified user', async () => {
    const user = await createUser(d.ctx, { verified: false });
    const page = await openLoggedIn(d.browser, d.ctx, user, d.opened);
    const banner = page.locator('.verify-banner');
    await banner.getByRole('button', { name: 'Resend verification e-mail' }).click();
    await expect(banner.getByRole('status').textContent()).resolves.toMatch(/on its way/);
    await screenshotPage(page, 'resend-verification');
    const mail = await d.ctx.db.kysely
      .selectFrom('emails')
      .select('subject')
      .where('to_address', '=', user.email)
      .execute();
    expect(mail).toEqual([{ subject: 'Confirm your e-mail address for Signet' }]);
  });
});
