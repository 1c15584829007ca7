import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium, type RecordedPage } from './browser.js';
import { createTestContext, findFreePort, type EngineName, type TestContext } from './context.js';
import { createTenant, createUser } from './factories.js';
import { startSmtpSink, type SmtpSink } from './smtp.js';

/** What a Chromium test of the signing page works with: see startSigningBrowser. */
export type SigningBrowser = {
  smtp: SmtpSink;
  ctx: TestContext;
  browser: Browser;
  apiKey: string;
  tenantId: string;
  close: () => Promise<void>;
};

/**
 * A listening service whose e-mails go to a real SMTP sink, an owner with a tenant, and Chromium.
 * PUBLIC_URL is the real listening address, so the e-mailed links open this very service.
 */
export async function startSigningBrowser(engine: EngineName): Promise<SigningBrowser> {
  const smtp = await startSmtpSink();
  const port = await findFreePort();
  const ctx = await createTestContext(engine, {
    listen: true,
    env: { SMTP_URL: smtp.url, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
  });
  const apiKey = (await createUser(ctx, { name: 'Olivia Owner' })).apiKey;
  const tenantId = (await createTenant(ctx, apiKey)).id;
  const browser = await launchChromium();
  return {
    smtp,
    ctx,
    browser,
    apiKey,
    tenantId,
    close: async () => {
      await browser.close();
      await ctx.close();
      await smtp.close();
    },
  };
}

/**
 * Closes the pages a test opened, expecting nothing went wrong in them: no request beyond
 * `baseUrl`'s origin, and no console problem but the signing API's own answers of `statuses`
 * (a link waiting for its code, closed by signing…), which Chromium logs as failed loads.
 */
export async function closeCleanPages(
  pages: RecordedPage[],
  baseUrl: string,
  statuses: number[],
): Promise<void> {
  await Promise.all(pages.map((p) => p.close()));
  const origin = new URL(baseUrl).origin;
  const expected = new RegExp(
    `^console: Failed to load resource: .* (${statuses.join('|')}) .*@ .*\\/api\\/signing\\/`,
  );
  for (const { requests, problems } of pages) {
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(problems.filter((p) => !expected.test(p))).toEqual([]);
  }
}
