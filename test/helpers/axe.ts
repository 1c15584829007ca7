import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, Result } from 'axe-core';

const require = createRequire(import.meta.url);
// axe-core runs inside the page: its bundled source is evaluated there (through the DevTools
// protocol, which the pages' Content-Security-Policy does not block), so the check needs no
// network and sees the page as a screen reader's user gets it.
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One accessibility violation, short enough to read in a failed assertion. */
export type AxeProblem = {
  id: string;
  impact: string;
  help: string;
  targets: string[];
  /** The start of each element's HTML, to find it by. */
  html: string[];
};

function summarise(violation: Result): AxeProblem {
  return {
    id: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    targets: violation.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    html: violation.nodes.slice(0, 5).map((n) => n.html.slice(0, 160)),
  };
}

/**
 * Runs the axe-core rules (WCAG 2.1 A and AA, and best practices) on the page as it is now and
 * returns the serious and critical violations: the ones issue 50 allows none of.
 */
export async function seriousA11yProblems(page: Page): Promise<AxeProblem[]> {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run: (o: unknown) => Promise<unknown> } }).axe.run({
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
    }),
  )) as AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(summarise);
}
