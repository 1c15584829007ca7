import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

// The machine's fonts have no Chinese, Japanese or Korean; a reader's device does. Chromium
// finds the Noto fonts the seal ships (npm packages) too, so a page in those languages shows
// letters, not boxes, in screenshots.
function fontconfigWithBundledFonts(): string {
  const require = createRequire(import.meta.url);
  const dirs = ['noto-sans-sc', 'noto-sans-kr', 'noto-sans-arabic'].map((family) =>
    path.dirname(require.resolve(`@expo-google-fonts/${family}/package.json`)),
  );
  const file = path.join(os.tmpdir(), 'signet-test-fonts.conf');
  writeFileSync(
    file,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>` +
      `<include ignore_missing="yes">/etc/fonts/fonts.conf</include>` +
      dirs.map((dir) => `<dir>${dir}</dir>`).join('') +
      `<cachedir>${path.join(os.tmpdir(), 'signet-test-fontcache')}</cachedir></fontconfig>\n`,
  );
  return file;
}

/** Debian's Chromium with flags that keep it from calling home (see the stack guide). */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    env: { ...process.env, FONTCONFIG_FILE: fontconfigWithBundledFonts() },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Viewports every page is looked at in: a phone and a desktop. */
export const VIEWPORTS = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1440, height: 900 },
} as const;

/** A page in its own browser context that records every request and every console problem. */
export type RecordedPage = {
  page: Page;
  context: BrowserContext;
  /** Every URL requested by the page and its workers, in order. */
  requests: string[];
  /** Console errors, page errors and CSP violations. */
  problems: string[];
  close: () => Promise<void>;
};

/** Opens a fresh context (no shared cookies or cache) at the given viewport size. */
export async function openRecordedPage(
  browser: Browser,
  viewport: { width: number; height: number },
): Promise<RecordedPage> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  // Context-level, so requests from the pdf.js worker are recorded too.
  context.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') {
      problems.push(`console: ${message.text()} @ ${message.location().url}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return { page, context, requests, problems, close: () => context.close() };
}

const SCREENSHOT_DIR = path.resolve('test-results/screenshots');

/**
 * Saves the page at phone and desktop width: the top of the page, and the signing panel when
 * there is one. Waits for the first PDF page to be drawn at each width.
 */
export async function screenshotBothWidths(page: Page, name: string): Promise<string[]> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const saved: string[] = [];
  const original = page.viewportSize();
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    await waitForVisiblePagesDrawn(page);
    const top = path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`);
    await page.screenshot({ path: top });
    saved.push(top);
    const panel = page.locator('#signing');
    if (label === 'phone' && (await panel.count()) > 0) {
      const file = path.join(SCREENSHOT_DIR, `${name}-${size.width}-panel.png`);
      await panel.screenshot({ path: file });
      saved.push(file);
    }
  }
  if (original) await page.setViewportSize(original);
  return saved;
}

/** Waits until the PDF pages in view (if any) are drawn at the current width. */
export async function waitForVisiblePagesDrawn(page: Page): Promise<void> {
  // The viewer re-measures 120 ms after a resize; give it that before checking.
  await page.waitForTimeout(250);
  await page.waitForFunction(() => {
    const pages = [...document.querySelectorAll<HTMLElement>('.pdf-page')];
    return pages.every((p) => {
      const box = p.getBoundingClientRect();
      const inView = box.bottom > 0 && box.top < window.innerHeight;
      return !inView || p.dataset.rendered === 'true';
    });
  });
}
