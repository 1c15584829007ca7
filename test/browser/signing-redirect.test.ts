import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openRecordedPage, VIEWPORTS } from '../helpers/browser.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingTokenFromMailbox } from '../helpers/signing.js';

const unique = (label: string) =>
  `${label}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;

// decisions §12: after signing or declining, the signing page says where it sends the signee,
// then goes to the document's redirectUrl with documentId, signeeId and event appended.
describe.each(ENGINES)('signing page redirect in Chromium on %s', (engine) => {
  let ctx: TestContext;
  let browser: Browser;
  let apiKey: string;
  let tenantId: string;
  // The integrator's page: a tiny local site that records what it was asked for.
  let site: Server;
  let siteOrigin: string;
  const visits: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    const owner = await createUser(ctx, { name: 'Olivia Owner' });
    apiKey = owner.apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
    site = createServer((req, res) => {
      visits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Back at the CRM</title><h1>Back at the CRM</h1>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await ctx?.close();
  });

  async function openSent(redirectUrl: string) {
    const signee = { email: unique('sam'), name: 'Sam Signee' };
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      signees: [signee],
      extra: { name: 'Order form', redirectUrl },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.document.id as string;
    expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
      200,
    );
    const token = await signingTokenFromMailbox(ctx, signee.email);
    const recorded = await openRecordedPage(browser, VIEWPORTS.desktop);
    const response = await recorded.page.goto(`${ctx.baseUrl}/sign/${token}`);
    expect(response?.status()).toBe(200);
    await recorded.page.getByRole('heading', { level: 1, name: 'Order form' }).waitFor();
    const signees = (await api(ctx, apiKey, 'GET', `/api/documents/${id}`)).body.signees;
    return { ...recorded, documentId: id, signeeId: signees[0].id as string };
  }

  // The page says where it goes, with the host, before it goes; then lands there.
  async function expectRedirect(
    opened: Awaited<ReturnType<typeof openSent>>,
    event: 'signed' | 'declined',
  ) {
    const { page } = opened;
    const notice = page.getByTestId('redirect-notice');
    await notice.waitFor();
    const host = new URL(siteOrigin).host;
    expect(await notice.innerText()).toBe(`Returning you to ${host}…`);
    expect(await notice.getByRole('link').getAttribute('href')).toMatch(`${siteOrigin}/done?`);
    await page.waitForURL((url) => url.origin === siteOrigin, { timeout: 15_000 });
    await page.getByRole('heading', { name: 'Back at the CRM' }).waitFor();
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/done');
    // The URL's own query first, unchanged, then ours.
    expect(landed.search).toBe(
      `?crm=42&note=a%20b&documentId=${opened.documentId}&signeeId=${opened.signeeId}&event=${event}`,
    );
    expect(visits).toContain(landed.pathname + landed.search);
    // As in signing-page.test.ts: the API's own 404/410 answers (a page of the PDF asked for
    // after the decline closed the link) are expected; nothing else may go wrong.
    const expected = /^console: Failed to load resource: .* (404|410) .*@ .*\/api\/signing\//;
    expect(opened.problems.filter((p) => !expected.test(p))).toEqual([]);
    await opened.close();
  }

  it('after signing, says where it goes and lands there with event=signed', async () => {
    const opened = await openSent(`${siteOrigin}/done?crm=42&note=a%20b`);
    const { page } = opened;
    await page.getByRole('textbox', { name: 'Type your full name' }).fill('Sam Signee');
    await page.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
    await page.getByRole('button', { name: 'Sign document', exact: true }).click();
    await page.getByRole('heading', { name: /You have signed/ }).waitFor();
    await expectRedirect(opened, 'signed');
  });

  it('after declining, lands there with event=declined', async () => {
    const opened = await openSent(`${siteOrigin}/done?crm=42&note=a%20b`);
    const { page } = opened;
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await page.getByRole('textbox', { name: 'Reason' }).fill('The price is wrong.');
    await page.getByRole('button', { name: 'Confirm decline' }).click();
    await page.getByRole('heading', { name: /You declined/ }).waitFor();
    await expectRedirect(opened, 'declined');
  });

  it('without a redirectUrl, the page stays where it is', async () => {
    const signee = { email: unique('pat'), name: 'Pat Stays' };
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      signees: [signee],
      extra: { name: 'Stay form' },
    });
    const id = created.body.document.id as string;
    await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const token = await signingTokenFromMailbox(ctx, signee.email);
    const recorded = await openRecordedPage(browser, VIEWPORTS.phone);
    const link = `${ctx.baseUrl}/sign/${token}`;
    await recorded.page.goto(link);
    const { page } = recorded;
    await page.getByRole('textbox', { name: 'Type your full name' }).fill('Pat Stays');
    await page.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
    await page.getByRole('button', { name: 'Sign document', exact: true }).click();
    await page.getByRole('heading', { name: /You have signed/ }).waitFor();
    await page.waitForTimeout(3000);
    expect(page.url()).toBe(link);
    expect(await page.getByTestId('redirect-notice').count()).toBe(0);
    await recorded.close();
  });
});
