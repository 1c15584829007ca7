import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openRecordedPage, VIEWPORTS } from '../helpers/browser.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';

const unique = (label: string) =>
  `${label}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;

const LINK_CLOSED = /^console: Failed to load resource: .* (404|410) .*@ .*\/api\/signing\//;

type HostEvent = {
  type: string;
  documentId: string | null;
  signeeId: string | null;
  code?: string;
};
type HostState = { events: HostEvent[]; raw: { origin: string; type: unknown }[] };

// An integrator's page: loads /embed.js from Signet and mounts the link its query names. It
// records what onEvent hands it, and every message its window receives from anywhere.
const hostPage = (signet: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host app</title></head>
<body><h1>Host app</h1><div id="signing"></div>
<script src="${signet}/embed.js"></script>
<script>
  window.host = { events: [], raw: [] };
  window.addEventListener('message', (e) => window.host.raw.push({ origin: e.origin, type: e.data && e.data.type }));
  const url = new URLSearchParams(location.search).get('url');
  window.mounted = Signet.mount(document.getElementById('signing'), {
    url,
    onEvent: (event) => window.host.events.push(event),
  });
</script></body></html>`;

// Two hosts on other origins than Signet's (other ports of 127.0.0.1, http being allowed for
// loopback origins): the first is listed in the tenant's embedOrigins, the second is not.
async function startHost(signet: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(hostPage(signet));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

// decisions §13: a host page on a listed origin frames the signing page through /embed.js and
// hears its events; a host on another origin is refused and hears nothing.
describe.each(ENGINES)('embedded signing in Chromium on %s', (engine) => {
  let ctx: TestContext;
  let browser: Browser;
  let apiKey: string;
  let tenantId: string;
  let plainTenantId: string;
  let listed: { server: Server; origin: string };
  let unlisted: { server: Server; origin: string };

  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    apiKey = (await createUser(ctx, { name: 'Olivia Owner' })).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
    plainTenantId = (await createTenant(ctx, apiKey, 'No embedding')).id;
    listed = await startHost(ctx.baseUrl);
    unlisted = await startHost(ctx.baseUrl);
    for (const [id, embedOrigins] of [
      [tenantId, [listed.origin]],
      [plainTenantId, []],
    ] as const) {
      const res = await api(ctx, apiKey, 'PATCH', `/api/tenants/${id}/settings`, {
        invitationEmails: false,
        embedOrigins,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    for (const host of [listed, unlisted]) await new Promise((r) => host?.server.close(r));
    await ctx?.close();
  });

  // A sent document's signing link (on this test's port) and its ids.
  async function sentLink(tenant = tenantId) {
    const created = await quickCreate(ctx, apiKey, {
      tenantId: tenant,
      signees: [{ email: unique('sam'), name: 'Sam Signee' }],
      extra: { name: 'Embedded contract' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const documentId = created.body.document.id as string;
    const sent = await api(ctx, apiKey, 'POST', `/api/documents/${documentId}/send-for-signing`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const delivery = sent.body.deliveries[0] as { signeeId: string; signingUrl: string };
    const url = `${ctx.baseUrl}${new URL(delivery.signingUrl).pathname}`;
    return { url, documentId, signeeId: delivery.signeeId };
  }

  async function openHost(origin: string, url: string) {
    const recorded = await openRecordedPage(browser, VIEWPORTS.desktop);
    await recorded.page.goto(`${origin}/?url=${encodeURIComponent(url)}`);
    return recorded;
  }

  const hostState = (page: Page) =>
    page.evaluate(() => (window as unknown as { host: HostState }).host);

  async function waitForEvent(page: Page, type: string) {
    await page.waitForFunction(
      (t) => (window as unknown as { host: HostState }).host.events.some((e) => e.type === t),
      type,
      { timeout: 20_000 },
    );
  }

  it('a listed host mounts the link, hears signet:ready, and signet:signed once signed inside', async () => {
    const link = await sentLink();
    const opened = await openHost(listed.origin, link.url);
    const { page } = opened;
    await waitForEvent(page, 'signet:ready');
    const frame = page.frameLocator('#signing iframe');
    await frame.getByRole('heading', { level: 1, name: 'Embedded contract' }).waitFor();
    const iframe = page.locator('#signing iframe');
    expect(await iframe.getAttribute('allow')).toBe('clipboard-write');
    // Auto height: the frame follows the page's content (signet:resize), taller than its start.
    await page.waitForFunction(
      () => document.querySelector('iframe')!.getBoundingClientRect().height > 700,
    );

    // A message from anywhere but the frame (here the host's own window) is not an event.
    await page.evaluate(() =>
      window.postMessage({ type: 'signet:signed', documentId: 'x', signeeId: 'y' }, '*'),
    );

    await frame.getByRole('textbox', { name: 'Type your full name' }).fill('Sam Signee');
    await frame.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
    await frame.getByRole('button', { name: 'Sign document', exact: true }).click();
    await frame.getByRole('heading', { name: /You have signed/ }).waitFor();
    await waitForEvent(page, 'signet:signed');

    const { events, raw } = await hostState(page);
    const ids = { documentId: link.documentId, signeeId: link.signeeId };
    expect(events).toEqual([
      { type: 'signet:ready', ...ids },
      { type: 'signet:signed', ...ids },
    ]);
    // Besides its own, every message the host received came from Signet's origin.
    expect(new Set(raw.map((m) => m.origin))).toEqual(new Set([ctx.baseUrl, listed.origin]));
    const signee = (await api(ctx, apiKey, 'GET', `/api/documents/${link.documentId}`)).body
      .signees[0];
    expect(signee.status).toBe('signed');
    // No cookie was needed, and nothing went wrong in either page. As in signing-page.test.ts,
    // the API's 410 for the PDF asked for after signing closed the link is expected.
    expect(await opened.context.cookies()).toEqual([]);
    expect(opened.problems.filter((p) => !LINK_CLOSED.test(p))).toEqual([]);

    // unmount() takes the frame away.
    await page.evaluate(() =>
      (window as unknown as { mounted: { unmount(): void } }).mounted.unmount(),
    );
    expect(await page.locator('iframe').count()).toBe(0);
    await opened.close();
  });

  it('declining inside the frame is signet:declined; a link that is over is signet:error', async () => {
    const link = await sentLink();
    const opened = await openHost(listed.origin, link.url);
    const { page } = opened;
    await waitForEvent(page, 'signet:ready');
    const frame = page.frameLocator('#signing iframe');
    await frame.getByRole('button', { name: 'Decline', exact: true }).click();
    await frame.getByRole('textbox', { name: 'Reason' }).fill('Wrong price.');
    await frame.getByRole('button', { name: 'Confirm decline' }).click();
    await waitForEvent(page, 'signet:declined');
    const ids = { documentId: link.documentId, signeeId: link.signeeId };
    expect((await hostState(page)).events).toEqual([
      { type: 'signet:ready', ...ids },
      { type: 'signet:declined', ...ids },
    ]);
    await opened.close();

    // Opened again, the declined document's link is over: the frame says so, and tells the host.
    const again = await openHost(listed.origin, link.url);
    await waitForEvent(again.page, 'signet:error');
    expect((await hostState(again.page)).events).toEqual([
      { type: 'signet:error', documentId: null, signeeId: null, code: 'link_expired' },
    ]);
    await again.close();
  });

  // Chromium reports the refusal and shows its error page in the frame instead.
  async function expectRefused(origin: string, url: string, ancestors: string) {
    const opened = await openHost(origin, url);
    const { page } = opened;
    await expect
      .poll(() => opened.problems.find((p) => p.includes('Content Security Policy')) ?? '', {
        timeout: 15_000,
      })
      .toContain(
        `Framing '${ctx.baseUrl}/' violates the following Content Security Policy directive: "frame-ancestors ${ancestors}"`,
      );
    await expect
      .poll(() =>
        page
          .frames()
          .find((f) => f !== page.mainFrame())
          ?.url(),
      )
      .toBe('chrome-error://chromewebdata/');
    // Long enough for the page's ready to have arrived had it been let in.
    await page.waitForTimeout(2000);
    const { events, raw } = await hostState(page);
    expect(events).toEqual([]);
    expect(raw).toEqual([]);
    await opened.close();
  }

  it('a host on an origin not listed is refused framing and hears nothing', async () => {
    const link = await sentLink();
    await expectRefused(unlisted.origin, link.url, `'self' ${listed.origin}`);
  });

  it("a tenant without embedOrigins refuses every host, the other tenant's listed one too", async () => {
    const link = await sentLink(plainTenantId);
    await expectRefused(listed.origin, link.url, "'self'");
  });
});
