import { describe, expect, it } from 'vitest';
import { openRecordedPage, VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { createUser, uniqueEmail } from '../helpers/factories.js';
import {
  callApi,
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  useDashboard,
} from './dashboard-support.js';

// Chromium logs the API's own 4xx answers to a provoked mistake as failed loads.
// The server-rendered mailbox and verification pages have no icon: favicon.ico is a 404.
const PROVOKED = /^console: Failed to load resource: .* status of (40[19]|422|429) |favicon\.ico$/;

describe.each(ENGINES)('dashboard: account and API keys on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  it('signs up with field errors, verifies through the dev mailbox, logs in and out', async () => {
    const recorded = await openRecordedPage(d.browser, VIEWPORTS.desktop);
    d.opened.push(recorded);
    const { page } = recorded;
    await page.goto(`${d.ctx.baseUrl}/`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await expect(page.getByRole('note').textContent()).resolves.toContain('Sandbox');
    await screenshotPage(page, 'login');

    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Dana Dashboard');
    await page.getByLabel('E-mail').fill('not-an-address');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    // Each message is tied to its own field.
    const emailField = page.getByLabel('E-mail');
    await expect.poll(() => emailField.getAttribute('aria-invalid')).toBe('true');
    await expect(page.getByLabel('Password').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(
      page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid'),
    ).resolves.toBeNull();
    const emailErrorId = (await emailField.getAttribute('aria-describedby')) ?? '';
    await expect(page.locator(`[id="${emailErrorId}"]`).textContent()).resolves.toMatch(/./);
    await screenshotPage(page, 'signup-errors');

    const email = uniqueEmail('dana');
    await emailField.fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toContain(email);
    await screenshotPage(page, 'signup-done');

    // The dev mailbox link, then the e-mail, then the link inside it.
    await page.getByRole('main').getByRole('link', { name: 'dev mailbox' }).click();
    await page.locator('a[href^="/dev/mailbox/"]').first().click();
    const verifyLink = await page
      .frameLocator('iframe')
      .locator('a[href*="/verify-email?token="]')
      .first()
      .getAttribute('href');
    expect(verifyLink?.startsWith(`${d.ctx.baseUrl}/verify-email?token=`)).toBe(true);
    await page.goto(verifyLink ?? '');
    await expect(page.textContent('body')).resolves.toContain('is verified');
    await page.getByRole('link', { name: 'open Signet' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();

    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('wrong password here');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
    const me = await page.evaluate(async () => (await fetch('/api/auth/me')).json());
    expect(me.user).toMatchObject({ email, emailVerified: true, name: 'Dana Dashboard' });
    // Sign-up made a workspace: the empty documents page offers its one next step.
    await page.getByRole('main').getByRole('link', { name: 'Upload a document' }).waitFor();
    await expect(page.getByLabel('Current workspace').inputValue()).resolves.toBeTruthy();

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    const after = await page.evaluate(async () => (await fetch('/api/auth/me')).status);
    expect(after).toBe(401);
  });

  it('creates an API key shown once, lists it with its use, and revokes it', async () => {
    const user = await createUser(d.ctx, { name: 'Kim Keys' });
    const page = await openLoggedIn(d.browser, d.ctx, user, d.opened);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'API keys' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();

    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.getByLabel('Key name').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Key name').fill('CI pipeline');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretBox = page.getByRole('textbox', { name: 'Secret of “CI pipeline”' });
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^sk_test_/);
    await expect(page.getByText('this is the only time Signet shows it').count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await screenshotPage(page, 'api-keys-secret');

    // The key works, and its use shows in the list.
    expect((await callApi(d.ctx, secret, 'GET', '/api/tenants')).status).toBe(200);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await expect(secretBox.count()).resolves.toBe(0);
    await page.reload();
    const row = page.getByRole('row', { name: /CI pipeline/ });
    await row.waitFor();
    const rowText = (await row.textContent()) ?? '';
    expect(rowText).toContain(`${secret.slice(0, 8)}`);
    expect(rowText).toContain(secret.slice(-4));
    expect(rowText).toContain('sandbox');
    expect(rowText).not.toContain('Never');
    expect(rowText).not.toContain(secret);
    await screenshotPage(page, 'api-keys');
    await page.setViewportSize(VIEWPORTS.phone);
    await expectNoSidewaysScroll(page);
    await page.setViewportSize(VIEWPORTS.desktop);

    // Revoke: asks first; "Keep" changes nothing, "Yes, revoke" does it.
    await page.getByRole('button', { name: 'Revoke CI pipeline' }).click();
    await page.getByRole('button', { name: 'Keep' }).click();
    expect((await callApi(d.ctx, secret, 'GET', '/api/tenants')).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke CI pipeline' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByText('Revoked “CI pipeline”').waitFor();
    // The notice comes first; the list reloads right after.
    await expect.poll(() => page.getByRole('row', { name: /CI pipeline/ }).count()).toBe(0);
    expect((await callApi(d.ctx, secret, 'GET', '/api/tenants')).status).toBe(401);
  });
});
