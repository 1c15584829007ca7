import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { insertMember } from '../helpers/db-factories.js';
import { api } from '../helpers/documents.js';
import { createTenantViaHttp, createUser } from '../helpers/factories.js';
import {
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  useDashboard,
} from './dashboard-support.js';

// The login page asks who is logged in before anyone is.
const PROVOKED = /^console: Failed to load resource: .* status of 401 /;

describe.each(ENGINES)('dashboard: the activity log on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });

  it('shows owners the newest first with Load more, and members nothing', async () => {
    const owner = await createUser(d.ctx, { name: 'Ava Admin' });
    const member = await createUser(d.ctx);
    const tenantId = (await createTenantViaHttp(d.ctx, owner.apiKey, 'Logged Ltd')).id;
    await insertMember(d.ctx, tenantId, member.id, 'member');
    const hook = await api(d.ctx, owner.apiKey, 'POST', `/api/tenants/${tenantId}/webhooks`, {
      url: 'http://127.0.0.1:9/hook',
    });
    expect(hook.status).toBe(201);
    // 1 tenant + 1 webhook + 30 settings: more than the page's 25.
    for (let minutes = 61; minutes <= 90; minutes++) {
      const res = await api(d.ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
        reminderCooldownMinutes: minutes,
      });
      expect(res.status).toBe(200);
    }

    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Activity' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    const entries = page.getByRole('list', { name: 'Activity' }).getByRole('listitem');
    await entries.first().waitFor();
    expect(await entries.count()).toBe(25);
    const newest = entries.first();
    await expect
      .poll(() => newest.innerText())
      .toContain('Changed settings: reminder cooldown minutes 89 → 90');
    const text = await newest.innerText();
    expect(text).toContain(owner.email);
    expect(text).toContain('(API key)');
    expect(text).toContain('IP 127.0.0.1');
    expect(text).toContain('settings.updated');
    await screenshotPage(page, 'activity');
    // The narrowest phone the dashboard is made for, and a laptop.
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await expectNoSidewaysScroll(page);
      await page.screenshot({
        path: `test-results/screenshots/dashboard-activity-at-${width}.png`,
        fullPage: true,
      });
    }
    await page.setViewportSize(VIEWPORTS.desktop);

    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => entries.count()).toBe(32);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(await entries.nth(30).innerText()).toContain(
      'Added the webhook http://127.0.0.1:9/hook',
    );
    expect(await entries.nth(31).innerText()).toContain('Created the workspace “Logged Ltd”');

    const memberPage = await openLoggedIn(d.browser, d.ctx, member, d.opened);
    const nav = memberPage.getByRole('navigation', { name: 'Dashboard' });
    await nav.getByRole('link', { name: 'Webhooks' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Activity' }).count()).toBe(0);
    await memberPage.goto(`${d.ctx.baseUrl}/app/activity`);
    await memberPage
      .getByText('Only owners and admins of Logged Ltd can see its activity.')
      .waitFor();
  });
});
