import path from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousA11yProblems } from '../helpers/axe.js';
import { expectNoSidewaysScroll } from './dashboard-support.js';

/** Where the PDFs of the shared corpus are, beside the project (read-only; see its README). */
export const CORPUS = path.resolve(__dirname, '../../../shared/corpus/files');

/** The step the progress list marks current, as "Step n of 5: Name" and its aria-current item. */
export async function expectStep(page: Page, n: number, name: string): Promise<void> {
  const progress = page.getByRole('navigation', { name: 'Progress' });
  await progress.getByText(`Step ${n} of 5: ${name}`).waitFor();
  await expect(progress.locator('[aria-current="step"]').textContent()).resolves.toContain(name);
}

/**
 * The step's h1 is shown (and focused, on arrival), the page fits its width and axe finds
 * nothing serious.
 */
export async function expectStepPage(page: Page, heading: string, arrived = true): Promise<void> {
  const h1 = page.getByRole('heading', { level: 1, name: heading });
  await h1.waitFor();
  if (arrived) {
    await expect.poll(() => h1.evaluate((e) => e === document.activeElement)).toBe(true);
  }
  await expectNoSidewaysScroll(page);
  expect(await seriousA11yProblems(page)).toEqual([]);
}

/**
 * Records, in the page, every value the upload's progress bar shows (sampled every 10 ms), so
 * a test reads the progress it saw once the upload is over.
 */
export async function recordProgress(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { seen: number[] };
    w.seen = [];
    window.setInterval(() => {
      const bar = document.querySelector<HTMLProgressElement>('.upload-progress progress');
      if (bar && w.seen.at(-1) !== bar.value) w.seen.push(bar.value);
    }, 10);
  });
  return () => page.evaluate(() => (window as unknown as { seen: number[] }).seen);
}

/** Slows the page's uploads to `bytesPerSecond` (Chromium's network emulation). */
export async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}
