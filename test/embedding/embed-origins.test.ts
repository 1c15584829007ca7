import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';

const unique = (label: string) =>
  `${label}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;

// The page headers every page gets, from security-headers.ts: only frame-ancestors may change.
const DEFAULT_ANCESTORS = "frame-ancestors 'self'";
const ancestorsOf = (csp: string | null) => /frame-ancestors [^;]*/.exec(csp ?? '')?.[0];
const metaOf = (html: string) =>
  /<meta name="signet-embed-origins" content="([^"]*)"/.exec(html)?.[1] ?? null;

// decisions §13, embedding: the tenant setting embedOrigins, and the signing page's framing
// headers that follow from it.
describe.each(ENGINES)('embedOrigins and the signing page headers on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  let otherTenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
    otherTenantId = (await createTenant(ctx, apiKey, 'Elsewhere')).id;
    for (const id of [tenantId, otherTenantId]) {
      const res = await settings({ invitationEmails: false }, id);
      expect(res.status).toBe(200);
    }
  });
  afterAll(async () => ctx?.close());

  const settings = (patch: unknown, id = tenantId) =>
    api(ctx, apiKey, 'PATCH', `/api/tenants/${id}/settings`, patch);

  // A sent document's signing link, from the send answer (no invitation e-mails).
  async function signingLink(tenant = tenantId): Promise<string> {
    return (await sentDocument(tenant)).link;
  }

  async function sentDocument(tenant = tenantId) {
    const created = await quickCreate(ctx, apiKey, {
      tenantId: tenant,
      signees: [{ email: unique('sam'), name: 'Sam Signee' }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sent = await api(
      ctx,
      apiKey,
      'POST',
      `/api/documents/${created.body.document.id}/send-for-signing`,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const url = new URL(sent.body.deliveries[0].signingUrl as string);
    return {
      link: `${ctx.baseUrl}${url.pathname}`,
      documentId: created.body.document.id as string,
    };
  }

  it('starts empty, stores origins normalised without repeats, and gives them back', async () => {
    const fresh = await createTenant(ctx, apiKey, 'Fresh');
    const initial = await api(ctx, apiKey, 'GET', `/api/tenants/${fresh.id}/settings`);
    expect(initial.body.settings.embedOrigins).toEqual([]);

    const res = await settings({
      embedOrigins: [
        'https://App.Example.COM:443',
        'https://app.example.com',
        'https://crm.example.com:8443',
        'http://localhost:5173',
        'http://127.0.0.1:8080',
        'http://[::1]:3000',
        'https://bücher.example',
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const expected = [
      'https://app.example.com',
      'https://crm.example.com:8443',
      'http://localhost:5173',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
      'https://xn--bcher-kva.example',
    ];
    expect(res.body.settings.embedOrigins).toEqual(expected);
    const reread = await api(ctx, apiKey, 'GET', `/api/tenants/${tenantId}/settings`);
    expect(reread.body.settings.embedOrigins).toEqual(expected);
    // Other settings are left alone.
    expect(reread.body.settings.invitationEmails).toBe(false);
    expect((await settings({ embedOrigins: [] })).body.settings.embedOrigins).toEqual([]);
  });

  it('refuses anything but an exact https origin (http to loopback only) with 422', async () => {
    await settings({ embedOrigins: ['https://kept.example.com'] });
    const refused = [
      'http://app.example.com',
      'https://app.example.com/',
      'https://app.example.com/embed',
      'https://app.example.com?x=1',
      'https://app.example.com#top',
      'https://*.example.com',
      '*',
      'app.example.com',
      '//app.example.com',
      'ftp://app.example.com',
      'wss://app.example.com',
      'javascript:alert(1)',
      'null',
      '',
      'https://',
      'https://user@app.example.com',
      'https://app.example.com:99999',
      'https://app example.com',
      ' https://app.example.com',
      'http://localhost.example.com',
      `https://${'a'.repeat(300)}.example`,
    ];
    for (const origin of refused) {
      const res = await settings({ embedOrigins: ['https://fine.example.com', origin] });
      expect(res.status, origin).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        origin,
      ).toEqual(['body.embedOrigins.1']);
    }
    const eleven = Array.from({ length: 11 }, (_, i) => `https://app${i}.example.com`);
    const tooMany = await settings({ embedOrigins: eleven });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors[0].path).toBe('body.embedOrigins');
    // Ten is the most; a bare string or null is not a list.
    expect((await settings({ embedOrigins: eleven.slice(0, 10) })).status).toBe(200);
    for (const value of ['https://app.example.com', null, [42]]) {
      expect((await settings({ embedOrigins: value })).status, JSON.stringify(value)).toBe(422);
    }
    // A refused change changes nothing.
    const reread = await api(ctx, apiKey, 'GET', `/api/tenants/${tenantId}/settings`);
    expect(reread.body.settings.embedOrigins).toEqual(eleven.slice(0, 10));
  });

  it('lets the listed origins frame the signing page; without, framing is refused as before', async () => {
    await settings({ embedOrigins: [] });
    const link = await signingLink();
    const plain = await fetch(link);
    expect(plain.status).toBe(200);
    expect(ancestorsOf(plain.headers.get('content-security-policy'))).toBe(DEFAULT_ANCESTORS);
    expect(plain.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(metaOf(await plain.text())).toBeNull();

    await settings({ embedOrigins: ['https://app.example.com', 'http://localhost:5173'] });
    const framed = await fetch(link);
    expect(framed.status).toBe(200);
    const csp = framed.headers.get('content-security-policy')!;
    expect(ancestorsOf(csp)).toBe(
      "frame-ancestors 'self' https://app.example.com http://localhost:5173",
    );
    // The rest of the policy is the pages' own.
    expect(csp.replace(/frame-ancestors [^;]*/, '')).toBe(
      plain.headers.get('content-security-policy')!.replace(/frame-ancestors [^;]*/, ''),
    );
    expect(framed.headers.get('x-frame-options')).toBeNull();
    // The page learns where it may post from the same list.
    expect(metaOf(await framed.text())).toBe('https://app.example.com http://localhost:5173');

    // Another tenant's link, an unknown token, the dashboard and the API keep the old headers.
    for (const url of [
      await signingLink(otherTenantId),
      `${ctx.baseUrl}/sign/sg_${'x'.repeat(43)}`,
      `${ctx.baseUrl}/`,
    ]) {
      const res = await fetch(url);
      expect(ancestorsOf(res.headers.get('content-security-policy')), url).toBe(DEFAULT_ANCESTORS);
      expect(res.headers.get('x-frame-options'), url).toBe('SAMEORIGIN');
      expect(metaOf(await res.text()), url).toBeNull();
    }
    const json = await fetch(`${ctx.baseUrl}/api/signing/${new URL(link).pathname.slice(6)}`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );

    // Emptied again: refused at once, no cache in between.
    await settings({ embedOrigins: [] });
    const after = await fetch(link);
    expect(ancestorsOf(after.headers.get('content-security-policy'))).toBe(DEFAULT_ANCESTORS);
    expect(after.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('keeps framing a link whose document is over, so the page can say so in the frame', async () => {
    await settings({ embedOrigins: ['https://app.example.com'] });
    const { link, documentId } = await sentDocument();
    const token = new URL(link).pathname.slice('/sign/'.length);
    expect((await api(ctx, apiKey, 'POST', `/api/documents/${documentId}/cancel`)).status).toBe(
      200,
    );
    expect((await fetch(`${ctx.baseUrl}/api/signing/${token}`)).status).toBe(410);
    const res = await fetch(link);
    expect(ancestorsOf(res.headers.get('content-security-policy'))).toBe(
      "frame-ancestors 'self' https://app.example.com",
    );
    expect(res.headers.get('x-frame-options')).toBeNull();
  });

  it('serves /embed.js: a small script, long-cached, shareable with any origin', async () => {
    const res = await fetch(`${ctx.baseUrl}/embed.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe(
      'public, max-age=86400, stale-while-revalidate=604800',
    );
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const script = await res.text();
    expect(script.length).toBeLessThan(4096);
    expect(script).toContain('Signet');
    expect(script).not.toMatch(/\bimport\b|\brequire\(/);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${ctx.baseUrl}/embed.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });
});
