import type { ParsedMail } from 'mailparser';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, findFreePort, type TestContext } from '../helpers/context.js';
import { cleanOrphanFiles } from '../../server/src/modules/storage/orphan-cleanup.js';
import { insertMember } from '../helpers/db-factories.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser, type TestUser } from '../helpers/factories.js';
import { signingCall } from '../helpers/signing.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import {
  animatedPng,
  bigPngLogo,
  gifFile,
  jpegLogo,
  pngBomb,
  pngChunkTypes,
  pngWithHtml,
  smallPngLogo,
  SVG_FILE,
} from './logo-files.js';

const to = (m: ParsedMail) => (m.to as { text: string }).text;

describe.each(ENGINES)('tenant branding on %s', (engine) => {
  let smtp: SmtpSink;
  let ctx: TestContext;
  let owner: TestUser;
  let member: TestUser;
  let tenantId: string;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    const port = await findFreePort();
    // PUBLIC_URL is the listening address: the logo URLs in answers and e-mails load from here.
    ctx = await createTestContext(engine, {
      listen: true,
      env: { SMTP_URL: smtp.url, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
    owner = await createUser(ctx, { name: 'Olivia Owner' });
    member = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    await insertMember(ctx, tenantId, member.id, 'member');
  });

  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  const settingsUrl = () => `/api/tenants/${tenantId}/settings`;
  const logoUrl = () => `/api/tenants/${tenantId}/logo`;
  const patch = (body: unknown) => api(ctx, owner.apiKey, 'PATCH', settingsUrl(), body);

  /** PUT the logo as the raw body, the way curl --data-binary does. */
  async function upload(bytes: Buffer | ReadableStream, type: string, apiKey = owner.apiKey) {
    const res = await fetch(`${ctx.baseUrl}${logoUrl()}`, {
      method: 'PUT',
      headers: { 'x-api-key': apiKey, 'content-type': type },
      body: bytes instanceof Buffer ? new Uint8Array(bytes) : bytes,
      ...(bytes instanceof Buffer ? {} : { duplex: 'half' }),
    } as RequestInit);
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type'), body: JSON.parse(text) };
  }

  const storedLogos = async () =>
    (await ctx.deps.storage.list(`brand/${tenantId}/`)).map((o) => o.key);

  async function fetchLogo(url: string) {
    const res = await fetch(url);
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  /**
   * The stored logo decoded: a fresh PNG within 400 x 120 with no metadata: pixels, and only
   * the pixel density libvips always writes (pHYs) beside them.
   */
  async function expectCleanPng(bytes: Buffer, size: { width: number; height: number }) {
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('png');
    expect({ width: meta.width, height: meta.height }).toEqual(size);
    expect(meta.width).toBeLessThanOrEqual(400);
    expect(meta.height).toBeLessThanOrEqual(120);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.comments ?? []).toEqual([]);
    expect(
      pngChunkTypes(bytes).filter(
        (t) => !['IHDR', 'PLTE', 'tRNS', 'pHYs', 'IDAT', 'IEND'].includes(t),
      ),
    ).toEqual([]);
    expect(bytes.includes(Buffer.from('Acme secret'))).toBe(false);
  }

  it('validates brandName and brandColor, trims and normalises them, and resets them with null', async () => {
    for (const bad of [
      { brandName: '' },
      { brandName: '   ' },
      { brandName: 'x'.repeat(101) },
      { brandName: 'Acme\nLegal' },
      { brandName: 'Acme\u202eLegal' },
      { brandColor: 'red' },
      { brandColor: '#abc' },
      { brandColor: '#12345g' },
      { brandColor: '#0f766e; background:url(x)' },
      { brandColor: 12 },
    ]) {
      const res = await patch(bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.errors[0].path).toBe(`body.${Object.keys(bad)[0]}`);
    }
    const byMember = await api(ctx, member.apiKey, 'PATCH', settingsUrl(), { brandName: 'X' });
    expect(byMember.status).toBe(403);

    const ok = await patch({ brandName: '  Acme & <Partners>  ', brandColor: '#0F766E' });
    expect(ok.status).toBe(200);
    expect(ok.body.settings).toMatchObject({
      brandName: 'Acme & <Partners>',
      brandColor: '#0f766e',
    });
    expect((await patch({ brandName: 'x'.repeat(100) })).body.settings.brandName).toHaveLength(100);
    const reset = await patch({ brandName: null, brandColor: null });
    expect(reset.body.settings).toMatchObject({ brandName: null, brandColor: null });
    const read = await api(ctx, member.apiKey, 'GET', settingsUrl());
    expect(read.body.settings).toMatchObject({ brandName: null, brandColor: null });
  });

  it('re-encodes a PNG and a JPEG logo: bounded, metadata stripped, public and immutable', async () => {
    expect((await api(ctx, member.apiKey, 'GET', logoUrl())).body).toEqual({ logo: null });

    const png = await upload(await bigPngLogo(), 'image/png');
    expect(png.status, JSON.stringify(png.body)).toBe(200);
    // 1200 x 500 fits 400 x 120 as 288 x 120, proportions kept.
    expect(png.body.logo).toMatchObject({ width: 288, height: 120 });
    const escaped = ctx.baseUrl.replace(/[.]/g, '\\.');
    expect(png.body.logo.url).toMatch(
      new RegExp(`^${escaped}/brand/${tenantId}/[0-9a-f]{32}\\.png$`),
    );
    const first = await fetchLogo(png.body.logo.url);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get('content-type')).toBe('image/png');
    expect(first.res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(first.res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(first.res.headers.get('x-content-type-options')).toBe('nosniff');
    await expectCleanPng(first.bytes, { width: 288, height: 120 });
    expect(await storedLogos()).toEqual([new URL(png.body.logo.url).pathname.slice(1)]);

    // A JPEG, rotated by its EXIF (640 x 480 turned upright is 480 x 640), replaces it.
    const jpeg = await upload(await jpegLogo(), 'image/jpeg');
    expect(jpeg.status, JSON.stringify(jpeg.body)).toBe(200);
    expect(jpeg.body.logo).toMatchObject({ width: 90, height: 120 });
    const second = await fetchLogo(jpeg.body.logo.url);
    await expectCleanPng(second.bytes, { width: 90, height: 120 });
    const { dominant } = await sharp(second.bytes).stats();
    expect(dominant.r).toBeGreaterThan(dominant.b);
    // The replaced logo is gone, from storage and from its URL.
    expect((await fetchLogo(png.body.logo.url)).res.status).toBe(404);
    expect(await storedLogos()).toEqual([new URL(jpeg.body.logo.url).pathname.slice(1)]);

    // Smaller than the box: kept as it is, never enlarged.
    const small = await upload(await smallPngLogo(), 'image/png');
    expect(small.body.logo).toMatchObject({ width: 90, height: 30 });
    expect((await api(ctx, member.apiKey, 'GET', logoUrl())).body).toEqual({
      logo: small.body.logo,
    });
  });

  it('leaves the current logo to orphan cleanup and removes a file no tenant names', async () => {
    const current = (await upload(await smallPngLogo(), 'image/png')).body.logo;
    const currentKey = new URL(current.url).pathname.slice(1);
    // What a process killed between storing a logo and naming it leaves behind.
    const orphan = `brand/${tenantId}/${'ab'.repeat(16)}.png`;
    await ctx.deps.storage.put(orphan, await smallPngLogo(), 'image/png');
    const result = await cleanOrphanFiles({
      db: ctx.db,
      storage: ctx.deps.storage,
      graceSeconds: 0,
      now: new Date(Date.now() + 1000),
    });
    expect(result.deleted).toContain(orphan);
    expect(result.deleted).not.toContain(currentKey);
    expect(await storedLogos()).toEqual([currentKey]);
  });

  it('refuses hostile uploads with a clear problem and changes nothing', async () => {
    const kept = await upload(await smallPngLogo(), 'image/png');
    expect(kept.status).toBe(200);
    const before = await storedLogos();
    const tenMb = Buffer.concat([
      (await smallPngLogo()).subarray(0, 33),
      Buffer.alloc(10 * 1024 * 1024, 7),
    ]);
    // The same 10 MB without a declared length (chunked), stopped at the limit.
    const chunked = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(new Uint8Array(256 * 1024).fill(7));
        controller.close();
      },
    });
    const truncatedJpeg = (await jpegLogo()).subarray(0, 1500);
    const truncatedPng = (await smallPngLogo()).subarray(0, 60);
    const cases: Array<[string, Buffer | ReadableStream, string, number, string, RegExp]> = [
      ['10 MB file', tenMb, 'image/png', 413, 'payload_too_large', /512 KiB/],
      [
        '10 MB chunked',
        chunked,
        'image/png',
        413,
        'payload_too_large',
        /at most 512 KiB; this upload is larger/,
      ],
      ['PNG bomb', pngBomb(), 'image/png', 422, 'validation_failed', /pixels/],
      [
        'truncated JPEG',
        truncatedJpeg,
        'image/jpeg',
        422,
        'validation_failed',
        /cannot be read|premature/i,
      ],
      ['truncated PNG', truncatedPng, 'image/png', 422, 'validation_failed', /ends early/],
      [
        'SVG',
        SVG_FILE,
        'image/svg+xml',
        415,
        'unsupported_media_type',
        /image\/png or image\/jpeg/,
      ],
      ['SVG called a PNG', SVG_FILE, 'image/png', 415, 'unsupported_media_type', /SVG/],
      ['GIF', await gifFile(), 'image/gif', 415, 'unsupported_media_type', /image\/png/],
      ['GIF called a PNG', await gifFile(), 'image/png', 415, 'unsupported_media_type', /GIF/],
      [
        'PNG with HTML in a text chunk',
        pngWithHtml(),
        'image/png',
        422,
        'validation_failed',
        /markup/,
      ],
      ['animated PNG', animatedPng(), 'image/png', 422, 'validation_failed', /animated/],
      [
        'JSON',
        Buffer.from('{"logo":"x"}'),
        'application/json',
        415,
        'unsupported_media_type',
        /image\/png/,
      ],
    ];
    for (const [name, body, type, status, code, detail] of cases) {
      const res = await upload(body, type);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
      expect(res.type, name).toMatch(/^application\/problem\+json/);
      expect(res.body.code, name).toBe(code);
      expect(res.body.detail, name).toMatch(detail);
    }
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(await smallPngLogo())], { type: 'image/png' }),
      'logo.png',
    );
    const multipart = await fetch(`${ctx.baseUrl}${logoUrl()}`, {
      method: 'PUT',
      headers: { 'x-api-key': owner.apiKey },
      body: form,
    });
    expect(multipart.status).toBe(415);
    // Members may not change it, strangers do not see the tenant.
    expect((await upload(await smallPngLogo(), 'image/png', member.apiKey)).status).toBe(403);
    const stranger = await createUser(ctx);
    expect((await upload(await smallPngLogo(), 'image/png', stranger.apiKey)).status).toBe(404);
    expect((await api(ctx, stranger.apiKey, 'GET', logoUrl())).status).toBe(404);

    expect(await storedLogos()).toEqual(before);
    expect((await api(ctx, owner.apiKey, 'GET', logoUrl())).body).toEqual({ logo: kept.body.logo });
    expect((await fetchLogo(kept.body.logo.url)).res.status).toBe(200);
    // Public paths that are not a current logo answer 404, never a file of another kind.
    for (const path of [
      `/brand/${tenantId}/${'0'.repeat(32)}.png`,
      `/brand/${tenantId}/..%2F..%2Fsecret-key.png`,
      `/brand/not-a-tenant/${'0'.repeat(32)}.png`,
    ]) {
      expect((await fetch(`${ctx.baseUrl}${path}`)).status, path).toBe(404);
    }
  });

  it('brands the invitation e-mail and the signing API answer, and drops the logo when removed', async () => {
    await patch({ brandName: 'Acme & <Partners>', brandColor: '#ffeb3b' });
    const logo = (await upload(await bigPngLogo(), 'image/png')).body.logo;
    const signee = `brand.${engine}.${Date.now()}@example.com`;
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email: signee, name: 'Sam Signee' }],
      extra: { name: 'Branded contract' },
    });
    expect(created.status).toBe(201);
    const id = created.body.document.id;
    expect(
      (await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(200);

    const mail = await smtp.waitFor((m) => to(m) === signee);
    const html = String(mail.html);
    // Escaped, never markup; the colour only as validated; the logo from its public URL.
    expect(html).toContain('Acme &amp; &lt;Partners&gt;');
    expect(html).not.toContain('<Partners>');
    expect(html).toContain(`<img src="${logo.url}" alt="Acme &amp; &lt;Partners&gt;"`);
    expect(html).toContain('border-bottom:3px solid #ffeb3b');
    // A pale yellow button gets black text.
    expect(html).toMatch(/background:#ffeb3b;color:#000000/);
    expect(html).toContain('Acme &amp; &lt;Partners&gt; · Signet');
    expect(mail.text!.split('\n')[0]).toBe('Acme & <Partners>');
    const image = await fetchLogo(logo.url);
    expect(image.res.status).toBe(200);
    expect((await sharp(image.bytes).metadata()).width).toBe(288);

    const token = /\/sign\/(sg_[\w-]+)/.exec(mail.text ?? '')![1];
    const view = await signingCall(ctx, token, '');
    expect(view.status).toBe(200);
    expect(view.body.brand).toEqual({
      name: 'Acme & <Partners>',
      color: '#ffeb3b',
      logoUrl: logo.url,
    });

    // Cancelled: the notice is branded too.
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/cancel`, { reason: 'Wrong file' });
    const notice = await smtp.waitFor((m) => to(m) === signee && m !== mail);
    expect(String(notice.html)).toContain(`<img src="${logo.url}"`);
    expect(notice.text!.split('\n')[0]).toBe('Acme & <Partners>');

    const removed = await fetch(`${ctx.baseUrl}${logoUrl()}`, {
      method: 'DELETE',
      headers: { 'x-api-key': owner.apiKey },
    });
    expect(removed.status).toBe(204);
    expect((await fetchLogo(logo.url)).res.status).toBe(404);
    expect(await storedLogos()).toEqual([]);
    expect((await api(ctx, owner.apiKey, 'GET', logoUrl())).body).toEqual({ logo: null });

    // Without a brand an e-mail is Signet's as before.
    await patch({ brandName: null, brandColor: null });
    const plain = `plain.${engine}.${Date.now()}@example.com`;
    const second = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email: plain, name: 'Pat Plain' }],
    });
    await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${second.body.document.id}/send-for-signing`,
    );
    const plainMail = await smtp.waitFor((m) => to(m) === plain);
    expect(String(plainMail.html)).not.toContain('<img');
    expect(String(plainMail.html)).toContain('background:#1d4ed8;color:#ffffff');
    expect(plainMail.text!.split('\n')[0]).toBe('Hello Pat Plain,');
    const plainToken = /\/sign\/(sg_[\w-]+)/.exec(plainMail.text ?? '')![1];
    const plainView = await signingCall(ctx, plainToken, '');
    expect(plainView.body.brand).toEqual({ name: null, color: null, logoUrl: null });
  });
});
