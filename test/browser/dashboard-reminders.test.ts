import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser, type TestUser } from '../helpers/factories.js';
import { expectNoSidewaysScroll, openLoggedIn, useDashboard } from './dashboard-support.js';

// The refusals the test provokes (bad reminder values) and the login page's question whether
// anyone is logged in.
const PROVOKED = /^console: Failed to load resource: .* status of (401|422) /;

const SHOTS = path.resolve('test-results/screenshots');

// A block of the page at a phone's and a desktop's width, without sideways scroll at either.
async function shoot(page: Page, block: Locator, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(100);
    await block.screenshot({ path: path.join(SHOTS, `dashboard-reminders-${name}-${width}.png`) });
    await expectNoSidewaysScroll(page);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}

// Automatic reminders in the dashboard (issue 48, decisions §12): the tenant's defaults in
// settings, and a document's own policy on its page, each read back through the API.
describe.each(ENGINES)('dashboard: automatic reminders on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);
  let owner: TestUser;
  let tenantId: string;
  beforeAll(async () => {
    owner = await createUser(d.ctx, { name: 'Rita Reminder' });
    tenantId = (await createTenant(d.ctx, owner.apiKey, 'Nudge Ltd')).id;
  });

  const address = (label: string) => `${label}.${Math.random().toString(36).slice(2, 7)}@ex.io`;
  const create = async (name: string) => {
    const signees = [{ email: address('sam'), name: 'Sam Signee' }];
    const res = await quickCreate(d.ctx, owner.apiKey, { tenantId, signees, extra: { name } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body as { document: { id: string } }).document.id;
  };
  const reminders = async (id: string) =>
    (await api(d.ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document.reminders;
  const save = (page: Page, name: string) => page.getByRole('button', { name }).click();

  it('sets the tenant’s reminder defaults in settings, refusals explained at the input', async () => {
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/workspace`);
    await page.getByRole('heading', { level: 2, name: 'Settings' }).waitFor();
    const group = page.getByRole('group', { name: 'Automatic reminders' });
    const first = group.getByLabel('First after (days)');
    const every = group.getByLabel('Then every (days)');
    const most = group.getByLabel('At most (reminders)');
    await expect.poll(() => most.inputValue()).toBe('3');
    await expect(first.inputValue()).resolves.toBe('');
    await expect(every.inputValue()).resolves.toBe('');

    // The service's rules, each under its own input; a word the form refuses itself.
    await first.fill('0');
    await most.fill('11');
    await save(page, 'Save settings');
    await page.getByText('Days until the first reminder must be at least 1.').waitFor();
    await page.getByText('Reminders per signee must be at most 10.').waitFor();
    await expect(first.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(every.getAttribute('aria-invalid')).resolves.toBeNull();
    await every.fill('weekly');
    await save(page, 'Save settings');
    await page.getByText('Days between reminders must be a whole number, like 7.').waitFor();
    const read = async () =>
      (await api(d.ctx, owner.apiKey, 'GET', `/api/tenants/${tenantId}/settings`)).body.settings;
    expect(await read()).toMatchObject({
      reminderFirstAfterDays: null,
      reminderEveryDays: null,
      reminderMax: 3,
    });

    await first.fill('2');
    await every.fill('3');
    await most.fill('2');
    await save(page, 'Save settings');
    await page.getByText('Settings saved.').waitFor();
    await expect(first.getAttribute('aria-invalid')).resolves.toBeNull();
    expect(await read()).toMatchObject({
      reminderFirstAfterDays: 2,
      reminderEveryDays: 3,
      reminderMax: 2,
    });
    await page.reload();
    await expect.poll(() => page.getByLabel('First after (days)').inputValue()).toBe('2');
    await expect(page.getByLabel('Then every (days)').inputValue()).resolves.toBe('3');
    await expect(page.getByLabel('At most (reminders)').inputValue()).resolves.toBe('2');
    await shoot(page, page.locator('section[aria-labelledby="tenant-settings"]'), 'settings');
  });

  it('shows a sent document’s reminders, changes them, refuses a bad value and turns them off', async () => {
    const id = await create('Reminded lease');
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/documents/${id}`);
    const shown = page.getByTestId('reminders');
    // A draft without its own: the tenant's defaults apply when it is sent, and say which.
    await expect.poll(() => shown.textContent()).toBe('Workspace defaults when sent');
    await page
      .getByText(
        'The workspace’s now: first reminder 2 days after invitation, then every 3 days, at most 2.',
      )
      .waitFor();
    await shoot(page, page.locator('.facts'), 'document-draft');
    await save(page, 'Send for signing');
    // No field is placed: sending asks first (issue 50).
    await save(page, 'Send anyway');
    await page.getByRole('heading', { name: 'Delivery results' }).waitFor();
    await expect
      .poll(() => shown.textContent())
      .toBe('First reminder 2 days after invitation, then every 3 days, at most 2');
    expect(await reminders(id)).toEqual({ firstAfterDays: 2, everyDays: 3, max: 2 });
    // The schedule's buttons leave **Remind** the only button a search for its name finds.
    await expect(page.getByRole('button', { name: 'Remind' }).count()).resolves.toBe(1);

    await save(page, 'Change schedule');
    const every = page.getByLabel('Then every (days)');
    await expect(every.inputValue()).resolves.toBe('3');
    await page.getByLabel('First after (days)').fill('1');
    await every.fill('1.5');
    await save(page, 'Save schedule');
    await expect.poll(() => every.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Days between reminders must be whole days.').waitFor();
    expect(await reminders(id)).toEqual({ firstAfterDays: 2, everyDays: 3, max: 2 });
    await shoot(page, page.locator('.facts'), 'document-editing');

    await every.fill('5');
    await page.getByLabel('At most (reminders)').fill('4');
    await save(page, 'Save schedule');
    await expect
      .poll(() => shown.textContent())
      .toBe('First reminder 1 day after invitation, then every 5 days, at most 4');
    expect(await reminders(id)).toEqual({ firstAfterDays: 1, everyDays: 5, max: 4 });
    await page.locator('.timeline').getByText('updated: automatic reminders').first().waitFor();
    await shoot(page, page.locator('.facts'), 'document');

    await save(page, 'Change schedule');
    await save(page, 'Turn schedule off');
    await expect.poll(() => shown.textContent()).toBe('None');
    expect(await reminders(id)).toBeNull();
    await expect(page.getByRole('button', { name: 'Set a schedule' }).count()).resolves.toBe(1);
  });

  it('turns a draft’s reminders off, which a reload still shows, and sets its own', async () => {
    const id = await create('Quiet draft');
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page.goto(`${d.ctx.baseUrl}/app/documents/${id}`);
    const shown = page.getByTestId('reminders');
    await expect.poll(() => shown.textContent()).toBe('Workspace defaults when sent');
    await save(page, 'Change schedule');
    await save(page, 'Turn schedule off');
    await expect.poll(() => shown.textContent()).toBe('None');
    // The API answers null either way; the trail tells the page they were turned off.
    await page.reload();
    await expect.poll(() => shown.textContent()).toBe('None');
    expect(await reminders(id)).toBeNull();

    // Neither wait given: the form asks for one rather than sending nothing.
    await save(page, 'Set a schedule');
    await save(page, 'Save schedule');
    await page
      .getByText('Give the days until the first reminder, or turn the schedule off.')
      .waitFor();
    await page.getByLabel('Then every (days)').fill('4');
    await save(page, 'Save schedule');
    await expect
      .poll(() => shown.textContent())
      .toBe('First reminder 4 days after invitation, then every 4 days, at most 3');
    expect(await reminders(id)).toEqual({ firstAfterDays: 4, everyDays: 4, max: 3 });
    // Sent, the document keeps its own policy rather than the tenant's.
    await save(page, 'Send for signing');
    await save(page, 'Send anyway');
    await page.getByRole('heading', { name: 'Delivery results' }).waitFor();
    expect(await reminders(id)).toEqual({ firstAfterDays: 4, everyDays: 4, max: 3 });
  });
});
