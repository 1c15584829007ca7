import { exportJWK, generateKeyPair, jwtVerify } from 'jose';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityToken, startEmbedExample } from '../../examples/embed/server.js';
import { launchChromium, openRecordedPage, VIEWPORTS } from '../helpers/browser.js';
import { createTestContext, ENGINES, findFreePort, type TestContext } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';

// docs/embedding.md's example (examples/embed/) against a running service: its server sets the
// tenant up, creates and sends a document, and its page signs it in Signet.mount's frame.
describe.each(ENGINES)('the embedding example in Chromium on %s', (engine) => {
  let ctx: TestContext;
  let browser: Browser;
  let apiKey: string;
  let tenantId: string;
  let example: Awaited<ReturnType<typeof startEmbedExample>>;

  beforeAll(async () => {
    // Signing links carry PUBLIC_URL: the service's own address here.
    const port = await findFreePort();
    ctx = await createTestContext(engine, {
      listen: true,
      env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
    apiKey = (await createUser(ctx, { name: 'Olivia Owner' })).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
    await api(ctx, apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
      embedOrigins: ['https://crm.example.com'],
    });
    example = await startEmbedExample({
      signetUrl: ctx.baseUrl,
      apiKey,
      tenantId,
      host: '127.0.0.1',
      port: await findFreePort(),
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await example?.close();
    await ctx?.close();
  });

  it('sets the tenant up, keeping the origins it had', async () => {
    const { settings } = (await api(ctx, apiKey, 'GET', `/api/tenants/${tenantId}/settings`)).body;
    expect(settings.invitationEmails).toBe(false);
    expect(settings.embedOrigins).toEqual(['https://crm.example.com', example.origin]);
  });

  it('creates, sends and signs a document inside the host page', async () => {
    const { page, problems, close } = await openRecordedPage(browser, VIEWPORTS.desktop);
    await page.goto(example.origin);
    await page.getByLabel('Your name').fill('Sam Customer');
    await page.getByLabel('E-mail').fill(`sam.${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Review and sign' }).click();
    await page.getByText('Please read and sign below.').waitFor({ timeout: 20_000 });
    const frame = page.frameLocator('#signing iframe');
    await frame.getByRole('heading', { level: 1, name: 'Service agreement' }).waitFor();
    await frame.getByRole('textbox', { name: 'Type your full name' }).fill('Sam Customer');
    await frame.getByRole('checkbox', { name: /I agree to sign electronically/ }).check();
    await frame.getByRole('button', { name: 'Sign document', exact: true }).click();
    // signet:signed, then the example's server confirmed it with the API.
    await page.getByText('Thank you: your agreement is signed.').waitFor({ timeout: 20_000 });
    expect(await page.locator('#signing iframe').count()).toBe(0);
    // The PDF asked for after signing closed the link is a 410, as in signing-page.test.ts.
    const closed = /^console: Failed to load resource: .* (404|410) .*@ .*\/api\/signing\//;
    expect(problems.filter((p) => !closed.test(p))).toEqual([]);
    await close();
  });
});

describe('the embedding example’s identity token', () => {
  it('names the signee as audience, their e-mail, and lives 5 minutes, once', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = { ...(await exportJWK(privateKey)), kid: 'acme-1', alg: 'ES256' as const };
    const signee = { id: '01a21557-5a99-77ec-8a17-d4197143f1d5', email: 'sam@example.com' };
    const token = await identityToken(
      { privateJwk, issuer: 'https://acme.example' },
      signee,
      'user-42',
    );
    const { payload, protectedHeader } = await jwtVerify(token, publicKey, {
      audience: signee.id,
      issuer: 'https://acme.example',
      algorithms: ['ES256'],
    });
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: 'acme-1' });
    expect(payload).toMatchObject({ email: signee.email, sub: 'user-42' });
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
  });
});
