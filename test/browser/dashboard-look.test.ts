import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yProblems } from '../helpers/axe.js';
import { openRecordedPage, VIEWPORTS } from '../helpers/browser.js';
import { ENGINES } from '../helpers/context.js';
import { quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import {
  expectNoSidewaysScroll,
  openLoggedIn,
  screenshotPage,
  useDashboard,
} from './dashboard-support.js';

// The login page asks whether anyone is logged in (401).
const PROVOKED = /^console: Failed to load resource: .* status of 401 /;
const TABS = 6;

// The look of the dashboard (issue 50 part 7): every main screen at 375 and 1440 px has no
// serious accessibility problem, never scrolls sideways, and shows the focus ring on each of the
// first controls Tab reaches.
describe.each(ENGINES)('dashboard: one look on every main screen on %s', (engine) => {
  const d = useDashboard(engine, PROVOKED);

  /** The first controls Tab reaches from where the page put focus, each with its ring. */
  async function expectFocusRings(page: Page, screen: string) {
    const seen: string[] = [];
    for (let i = 0; i < TABS; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        return {
          name: `${el.tagName.toLowerCase()} “${(el.textContent ?? '').trim().slice(0, 30)}”`,
          visible: el.matches(':focus-visible'),
          outline: style.outlineStyle,
          width: parseFloat(style.outlineWidth),
        };
      });
      if (!focused) continue;
      seen.push(focused.name);
      expect(focused.visible, `${screen}: ${focused.name} is :focus-visible`).toBe(true);
      expect(focused.outline, `${screen}: ${focused.name} has an outline`).not.toBe('none');
      expect(focused.width, `${screen}: ${focused.name}'s outline width`).toBeGreaterThan(0);
    }
    expect(seen.length, `${screen}: Tab reaches controls`).toBeGreaterThan(0);
  }

  /** The checks of one screen at both widths, and its screenshots. */
  async function lookAt(page: Page, screen: string) {
    for (const size of Object.values(VIEWPORTS)) {
      await page.setViewportSize(size);
      await page.waitForTimeout(50);
      expect(await seriousA11yProblems(page), `${screen} at ${size.width} px`).toEqual([]);
      await expectNoSidewaysScroll(page);
      await expectFocusRings(page, `${screen} at ${size.width} px`);
    }
    await screenshotPage(page, `look-${screen}`);
  }

  it('login and sign-up', async () => {
    const recorded = await openRecordedPage(d.browser, VIEWPORTS.desktop);
    d.opened.push(recorded);
    const { page } = recorded;
    await page.goto(`${d.ctx.baseUrl}/login`);
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await lookAt(page, 'login');
    await page.goto(`${d.ctx.baseUrl}/signup`);
    await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
    await lookAt(page, 'signup');
  });

  it('an empty workspace, then one with a document', async () => {
    const owner = await createUser(d.ctx, { name: 'Lou Look' });
    const tenant = await createTenant(d.ctx, owner.apiKey, 'Look & Feel Ltd');
    const page = await openLoggedIn(d.browser, d.ctx, owner, d.opened);
    const visit = async (path: string, heading: string, screen: string) => {
      await page.goto(`${d.ctx.baseUrl}${path}`);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      await lookAt(page, screen);
    };

    await visit('/app/documents', 'Send your first document', 'documents-empty');
    await visit('/app/documents/new', 'Upload a document', 'new-document');
    await visit('/app/templates', 'No templates yet', 'templates-empty');
    await visit('/app/webhooks', 'No webhooks yet', 'webhooks-empty');
    await visit('/app/api-keys', 'Your keys', 'api-keys');
    await visit('/app/workspace', 'Workspace', 'workspace');
    await visit('/app/activity', 'Activity', 'activity');

    // Each empty list offers exactly one next action.
    for (const [path, heading] of [
      ['/app/templates', 'No templates yet'],
      ['/app/webhooks', 'No webhooks yet'],
      ['/app/documents?pinned=true', 'No pinned documents'],
    ]) {
      await page.goto(`${d.ctx.baseUrl}${path}`);
      const empty = page.getByTestId('empty-state').filter({ hasText: heading });
      await empty.waitFor();
      await expect(empty.locator('a, button').count()).resolves.toBe(1);
    }

    const created = await quickCreate(d.ctx, owner.apiKey, {
      tenantId: tenant.id,
      extra: { name: 'Lease for the shop' },
    });
    expect(created.status).toBe(201);
    await visit('/app/documents', 'Documents', 'documents');
    await page.getByRole('rowheader', { name: /Lease for the shop/ }).waitFor();
    await visit(`/app/documents/${created.body.document.id}`, 'Lease for the shop', 'document');
  });
});
