import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yProblems } from '../helpers/axe.js';
import { launchChromium, VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { insertApiKey } from '../helpers/db-factories.js';
import { api, quickCreate } from '../helpers/documents.js';
import { signingCall, waitForStatus } from '../helpers/signing.js';
import { startSmtpSink } from '../helpers/smtp.js';
import {
  expectAccessible,
  linkMailedTo,
  signUpAndLogIn,
  type MailedDashboard,
} from './first-hour-support.js';
import { checkPages, screenshotPage, startService } from './dashboard-support.js';

// The login page asks whether anyone is logged in (401), the blank rename is refused (422); the
// server-rendered verification page has no icon (favicon.ico is a 404).
const PROVOKED = /^console: Failed to load resource: .* status of (401|422) |favicon\.ico$/;

// The first hour (issue 50): sign-up makes a workspace, so a new user lands on an empty
// Documents page with one thing to do; with documents, the counts on top link to their lists.
describe.each(ENGINES)('dashboard: sign-up to a workspace and its home counts on %s', (engine) => {
  const d = { opened: [] } as unknown as MailedDashboard;
  beforeAll(async () => {
    d.smtp = await startSmtpSink();
    d.ctx = await startService(engine, { SMTP_URL: d.smtp.url });
    d.browser = await launchChromium();
  });
  afterAll(async () => {
    await d.browser?.close();
    await d.ctx?.close();
    await d.smtp?.close();
  });
  afterEach(() => checkPages(d.ctx, d.opened, PROVOKED));

  it('lands a new user on an empty Documents page with one action, at 375 and 1440 px', async () => {
    for (const [viewport, company, workspace] of [
      [VIEWPORTS.phone, '', "Ada Lovelace's workspace"],
      [VIEWPORTS.desktop, 'Analytical Engines Ltd', 'Analytical Engines Ltd'],
    ] as const) {
      const { page } = await signUpAndLogIn(d, viewport, company);
      // One thing to do: the page's only control is its upload link.
      const main = page.getByRole('main');
      await expect(main.getByRole('link').allTextContents()).resolves.toEqual([
        'Upload a document',
      ]);
      await expect(main.getByRole('button').count()).resolves.toBe(0);
      await expect(page.getByText(/tenant/i).count()).resolves.toBe(0);
      await expect(page.getByText('Create a tenant first').count()).resolves.toBe(0);
      if (viewport === VIEWPORTS.phone) await page.getByRole('button', { name: 'Menu' }).click();
      const selector = page.getByLabel('Current workspace');
      await expect(
        selector.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent),
      ).resolves.toBe(workspace);
      if (viewport === VIEWPORTS.phone) await page.getByRole('button', { name: 'Menu' }).click();
      await expectAccessible(page);
      await page.setViewportSize(viewport);
      await screenshotPage(page, `first-hour-empty-${viewport.width}`);
      await main.getByRole('link', { name: 'Upload a document' }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/app/documents/new');
      if (viewport !== VIEWPORTS.desktop) continue;

      // The owner renames it on the Workspace page; the header follows.
      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Workspace' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
      await page.getByLabel('Workspace name', { exact: true }).fill('');
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.getByText('Workspace name must not be empty.').waitFor();
      await page.getByLabel('Workspace name', { exact: true }).fill('Engines & Co');
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.getByText('Renamed to Engines & Co.').waitFor();
      await page.getByRole('heading', { level: 2, name: 'Engines & Co' }).waitFor();
      await expect(
        selector.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent),
      ).resolves.toBe('Engines & Co');
      expect(await seriousA11yProblems(page)).toEqual([]);
    }
  });

  it('shows the counts that matter, each a link to exactly its documents', async () => {
    const { page, email } = await signUpAndLogIn(d, VIEWPORTS.desktop, 'Counting House');
    const me = await page.evaluate(async () => (await fetch('/api/auth/me')).json());
    const apiKey = (await insertApiKey(d.ctx, me.user.id)).secret;
    const tenantId = (await api(d.ctx, apiKey, 'GET', '/api/tenants')).body.tenants[0].id;
    const create = async (name: string, signee: string) => {
      const res = await quickCreate(d.ctx, apiKey, {
        tenantId,
        signees: [{ email: signee, name: 'Sam Signee' }],
        extra: { name },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.document.id as string;
    };
    const send = async (id: string) =>
      (await api(d.ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).body;
    const at = (label: string) => `${label}-${engine}-${Date.now()}@example.com`;

    await create('Draft one', at('d1'));
    await create('Draft two', at('d2'));
    await send(await create('Waiting lease', at('w')));
    d.smtp.rejectRecipients(/^bounce-/);
    try {
      const sent = await send(await create('Bounced offer', at('bounce')));
      expect(sent.deliveries[0].status).toBe('failed');
    } finally {
      d.smtp.rejectRecipients(null);
    }
    const signer = at('signer');
    const done = await create('Signed contract', signer);
    await send(done);
    const token = (await linkMailedTo(d, signer, /\/sign\/(sg_[\w-]+)/)).slice('/sign/'.length);
    const signed = await signingCall(d.ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Sam Signee' },
    });
    expect(signed.status).toBe(200);
    await waitForStatus(d.ctx, apiKey, done, 'signed', 30_000);
    expect(email).toBeTruthy();

    // Opening the page again counts again.
    await page.goto(`${d.ctx.baseUrl}/app/documents`);
    const count = (key: string) => page.getByTestId(`count-${key}`);
    await expect.poll(() => count('waiting').textContent()).toBe('2Waiting for others');
    await expect(count('prepare').textContent()).resolves.toBe('2Waiting for you to prepare');
    await expect(count('completed').textContent()).resolves.toBe('1Completed in the last 7 days');
    await expect(count('failed').textContent()).resolves.toBe('1Failed e-mails');
    await expectAccessible(page);
    await page.setViewportSize(VIEWPORTS.desktop);
    await screenshotPage(page, 'first-hour-counts');

    const names = () =>
      page
        .locator('table tbody th')
        .evaluateAll((ths) => ths.map((th) => th.querySelector('a')?.textContent ?? ''));
    await page.getByRole('link', { name: /Failed e-mails/ }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?emailFailed=true');
    await expect.poll(names).toEqual(['Bounced offer']);
    await page.getByText('Showing Failed e-mails').waitFor();
    await expect(count('failed').getAttribute('aria-current')).resolves.toBe('true');
    await screenshotPage(page, 'first-hour-filtered');
    // Reload keeps the filter; back leaves it.
    await page.reload();
    await expect.poll(names).toEqual(['Bounced offer']);
    await page.getByRole('link', { name: /Completed in the last 7 days/ }).click();
    await expect.poll(names).toEqual(['Signed contract']);
    await page.goBack();
    await expect.poll(names).toEqual(['Bounced offer']);
    await page.getByRole('link', { name: /Waiting for others/ }).click();
    await expect.poll(names).toEqual(['Bounced offer', 'Waiting lease']);
    await page.getByRole('link', { name: /Waiting for you to prepare/ }).click();
    await expect.poll(names).toEqual(['Draft two', 'Draft one']);
    await page.getByRole('button', { name: 'Clear filter' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expect.poll(async () => (await names()).length).toBe(5);
  });
});
