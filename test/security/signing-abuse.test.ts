import { readdirSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser, uniqueEmail } from '../helpers/factories.js';
import { signingCall, signingTokenFromMailbox, TINY_PNG } from '../helpers/signing.js';

// A real PNG that inflates to 8 MB of pixels per 1-bit row set: 8000 x 8000 pixels in a few KiB.
function pngBomb(width = 8000, height = 8000): string {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  const png = Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe.each(ENGINES)('signing links under abuse on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    const user = await createUser(ctx);
    apiKey = user.apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  async function sentDocument(signees: Array<{ email: string; name: string }>) {
    const created = await quickCreate(ctx, apiKey, { tenantId, signees });
    expect(created.status).toBe(201);
    const id = created.body.document.id as string;
    expect((await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status).toBe(
      200,
    );
    return id;
  }

  it('refuses a PNG decompression bomb from its header, without stalling the service', async () => {
    const email = uniqueEmail('bomb');
    await sentDocument([{ email, name: 'Bomb Thrower' }]);
    const token = await signingTokenFromMailbox(ctx, email);
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(400_000);
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    const res = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'drawn', image: bomb },
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        path: 'body.signature.image',
        message: 'must be at most 4096 x 4096 pixels (this one is 8000 x 8000)',
      },
    ]);
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024);
    // Large enough in total but within each side: the pixel cap.
    const wide = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'drawn', image: pngBomb(4000, 4000) },
    });
    expect(wide.status).toBe(422);
    expect(wide.body.errors[0].message).toMatch(/at most 4000000 pixels/);
    // The signee can still sign with an honest image.
    const ok = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'drawn', image: TINY_PNG },
    });
    expect(ok.status).toBe(200);
  });

  it('writes nothing for a link that cannot sign', async () => {
    const first = uniqueEmail('done');
    const id = await sentDocument([
      { email: first, name: 'Done Already' },
      { email: uniqueEmail('other'), name: 'Still Pending' },
    ]);
    const token = await signingTokenFromMailbox(ctx, first);
    const signed = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'drawn', image: TINY_PNG },
    });
    expect(signed.status).toBe(200);
    const filesDir = path.join(ctx.config.dataDir, 'files');
    const before = filesUnder(filesDir).filter((f) => f.includes(id)).length;
    for (let i = 0; i < 4; i++) {
      const again = await signingCall(ctx, token, 'sign', {
        consent: true,
        signature: { type: 'drawn', image: pngBomb(400 + i, 100) },
      });
      expect(again.status).toBe(409);
    }
    expect(filesUnder(filesDir).filter((f) => f.includes(id)).length).toBe(before);
  });

  it('limits each link and each address, and lets no cache keep an answer', async () => {
    const email = uniqueEmail('limit');
    await sentDocument([{ email, name: 'Many Clicks' }]);
    const token = await signingTokenFromMailbox(ctx, email);
    const view = await fetch(`${ctx.baseUrl}/api/signing/${token}`);
    expect(view.status).toBe(200);
    expect(view.headers.get('cache-control')).toBe('no-store');
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${ctx.baseUrl}/api/signing/${token}/decline`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reason: '' }),
      });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    // Five writes per link at once (all refused for their empty reason), then 429.
    expect(statuses.slice(0, 5)).toEqual([422, 422, 422, 422, 422]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    const burst = await Promise.all(
      Array.from({ length: 40 }, () => fetch(`${ctx.baseUrl}/api/signing/${token}`)),
    );
    const codes = burst.map((r) => r.status);
    expect(codes.filter((c) => c === 200).length).toBeLessThanOrEqual(30);
    expect(codes).toContain(429);
  });
});
