import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  launchChromium,
  openRecordedPage,
  VIEWPORTS,
  type RecordedPage,
} from '../helpers/browser.js';
import {
  createTestContext,
  findFreePort,
  type EngineName,
  type TestContext,
} from '../helpers/context.js';

/**
 * A listening service whose PUBLIC_URL is its real address: the session cookie's same-origin
 * check and the e-mailed links then match what the browser sees.
 */
export async function startService(
  engine: EngineName,
  env: Record<string, string> = {},
): Promise<TestContext> {
  const port = await findFreePort();
  return createTestContext(engine, {
    listen: true,
    env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
  });
}

/** What a dashboard describe block shares: its service, its Chromium and the pages opened. */
export type Dashboard = { ctx: TestContext; browser: Browser; opened: RecordedPage[] };

/**
 * Starts a listening service and Chromium for the describe block it is called in, closes both
 * after it, and checks every page a test opened after that test (see checkPages).
 */
export function useDashboard(
  engine: EngineName,
  expectedFailures: RegExp,
  env: Record<string, string> = {},
): Dashboard {
  const d = { opened: [] } as unknown as Dashboard;
  beforeAll(async () => {
    d.ctx = await startService(engine, env);
    d.browser = await launchChromium();
  });
  afterAll(async () => {
    await d.browser?.close();
    await d.ctx?.close();
  });
  afterEach(() => checkPages(d.ctx, d.opened, expectedFailures));
  return d;
}

/** Opens a recorded desktop page and logs the user in through the login form. */
export async function openLoggedIn(
  browser: Browser,
  ctx: TestContext,
  user: { email: string; password: string },
  opened: RecordedPage[],
): Promise<Page> {
  const recorded = await openRecordedPage(browser, VIEWPORTS.desktop);
  opened.push(recorded);
  const { page } = recorded;
  await page.goto(`${ctx.baseUrl}/login`);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
  return page;
}

/**
 * After each test: every request of every page went to the service itself, and no page had a
 * script error or a CSP refusal. Error answers the test provoked on purpose are allowed.
 */
export async function checkPages(
  ctx: TestContext,
  opened: RecordedPage[],
  expectedFailures: RegExp = /$^/,
) {
  const pages = opened.splice(0);
  await Promise.all(pages.map((p) => p.close()));
  const origin = new URL(ctx.baseUrl).origin;
  for (const { requests, problems } of pages) {
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(problems.filter((p) => !expectedFailures.test(p))).toEqual([]);
  }
}

const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

/** Saves the whole page at phone and desktop width as dashboard-{name}-{width}.png. */
export async function screenshotPage(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize();
  for (const size of Object.values(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(100);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `dashboard-${name}-${size.width}.png`),
      fullPage: true,
    });
  }
  if (original) await page.setViewportSize(original);
}

/** The page fits its width: nothing makes the document scroll sideways. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  if (overflow > 0) {
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter(
          (e) =>
            e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.table-wrap'),
        )
        .slice(0, 5)
        .map((e) => `${e.tagName}.${e.className}`),
    );
    expect(wide).toEqual([]);
  }
  expect(overflow).toBeLessThanOrEqual(0);
}

/** A call to the service with an API key (or none), parsed as JSON when it is. */
export async function callApi(
  ctx: TestContext,
  apiKey: string | null,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${ctx.baseUrl}${url}`, {
    method,
    headers: {
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: keep the text.
  }
  return { status: res.status, body: parsed };
}
