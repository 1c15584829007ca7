import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { seriousA11yProblems } from '../helpers/axe.js';
import { launchChromium, openRecordedPage, VIEWPORTS } from '../helpers/browser.js';
import type { EngineName } from '../helpers/context.js';
import { uniqueEmail } from '../helpers/factories.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import {
  checkPages,
  expectNoSidewaysScroll,
  startService,
  type Dashboard,
} from './dashboard-support.js';

// What the first-hour tests share (issue 50): a new user's way in, the mail they get, the
// accessibility check of a screen at both widths, and the screenshots docs/dashboard.md shows.

/** A dashboard with the SMTP listener its e-mails go to, and a scratch directory. */
export type MailedDashboard = Dashboard & { smtp: SmtpSink; dir: string };

/**
 * Starts an SMTP listener, a listening service that sends to it, Chromium and a scratch
 * directory for the describe block it is called in; closes them after it, and checks every
 * page a test opened after that test (see checkPages).
 */
export function useMailedDashboard(engine: EngineName, expectedFailures: RegExp): MailedDashboard {
  const d = { opened: [] } as unknown as MailedDashboard;
  beforeAll(async () => {
    d.smtp = await startSmtpSink();
    d.ctx = await startService(engine, { SMTP_URL: d.smtp.url });
    d.browser = await launchChromium();
    d.dir = mkdtempSync(path.join(os.tmpdir(), 'signet-dashboard-'));
  });
  afterAll(async () => {
    await d.browser?.close();
    await d.ctx?.close();
    await d.smtp?.close();
    if (d.dir) rmSync(d.dir, { recursive: true, force: true });
  });
  afterEach(() => checkPages(d.ctx, d.opened, expectedFailures));
  return d;
}

export const PASSWORD = 'correct horse battery';

/** The first link matching `pattern` in the newest e-mail to `to` that has one. */
export async function linkMailedTo(d: MailedDashboard, to: string, pattern: RegExp) {
  const mail = await d.smtp.waitFor(
    (m) => JSON.stringify(m.to ?? '').includes(to) && pattern.test(m.text ?? ''),
  );
  return pattern.exec(mail.text ?? '')![0];
}

/**
 * No serious or critical axe-core violation and no sideways scroll, at a phone's and a
 * desktop's width; the page is left at `back` (the width the test walks at).
 */
export async function expectAccessible(
  page: Page,
  back: { width: number; height: number } = VIEWPORTS.desktop,
): Promise<void> {
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size);
    expect(await seriousA11yProblems(page), `${size.width} px`).toEqual([]);
    await expectNoSidewaysScroll(page);
  }
  await page.setViewportSize(back);
}

// `npm run screenshots` sets this to docs/images/dashboard: the walk then saves what it sees.
const DOCS_SHOTS = process.env.SIGNET_SCREENSHOTS;

/**
 * The screen as it is now, for docs/dashboard.md: `{name}-{width}.jpg` in the directory
 * SIGNET_SCREENSHOTS names (nothing without it). The visible part only, as a reader sees it,
 * scrolled to `focus` when given.
 */
export async function docsShot(page: Page, name: string, focus?: Locator): Promise<void> {
  if (!DOCS_SHOTS) return;
  await focus?.scrollIntoViewIfNeeded();
  mkdirSync(path.resolve(DOCS_SHOTS), { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({
    path: path.resolve(DOCS_SHOTS, `${name}-${width}.jpg`),
    type: 'jpeg',
    quality: 80,
  });
}

/** Sign-up, the e-mailed link, log-in: the new user on the empty Documents page. */
export async function signUpAndLogIn(
  d: MailedDashboard,
  viewport: { width: number; height: number },
  company: string,
): Promise<{ page: Page; email: string }> {
  const recorded = await openRecordedPage(d.browser, viewport);
  d.opened.push(recorded);
  const { page } = recorded;
  const email = uniqueEmail('first-hour');
  await page.goto(`${d.ctx.baseUrl}/signup`);
  await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
  await expectAccessible(page, viewport);
  await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await page.getByLabel('Company or team name (optional)').fill(company);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await docsShot(page, 'signup');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

  await page.goto(await linkMailedTo(d, email, /http\S+\/verify-email\?token=[\w-]+/));
  await expect(page.textContent('body')).resolves.toContain('is verified');
  await page.goto(`${d.ctx.baseUrl}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  await page.getByRole('heading', { name: 'Send your first document' }).waitFor();
  return { page, email };
}
