import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';

describe.each(ENGINES)('listing and download URLs on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true, env: { DOWNLOAD_URL_TTL_SECONDS: '2' } });
    owner = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(() => ctx.close());

  it('lists newest first with a keyset cursor and a status filter', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await quickCreate(ctx, owner.apiKey, { tenantId, extra: { name: `Doc ${i}` } });
      ids.push(res.body.document.id);
    }
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${ids[1]}/send-for-signing`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `/api/documents?tenantId=${tenantId}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await api(ctx, owner.apiKey, 'GET', query);
      expect(page.status).toBe(200);
      expect(page.body.documents.length).toBeLessThanOrEqual(2);
      for (const d of page.body.documents) {
        expect(d.downloadUrl).toMatch(/\/api\/files\//);
        seen.push(d.id);
      }
      cursor = page.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const inProcess = await api(
      ctx,
      owner.apiKey,
      'GET',
      `/api/documents?tenantId=${tenantId}&status=in_process`,
    );
    expect(inProcess.body.documents.map((d: { id: string }) => d.id)).toEqual([ids[1]]);
    expect(inProcess.body.nextCursor).toBeNull();
    const drafts = await api(
      ctx,
      owner.apiKey,
      'GET',
      `/api/documents?tenantId=${tenantId}&status=draft&limit=100`,
    );
    expect(drafts.body.documents).toHaveLength(4);
  });

  it('validates the query and hides other tenants', async () => {
    const bad = [
      `/api/documents?tenantId=${tenantId}&limit=0`,
      `/api/documents?tenantId=${tenantId}&limit=101`,
      `/api/documents?tenantId=${tenantId}&status=shredded`,
      `/api/documents?tenantId=${tenantId}&cursor=not-a-cursor`,
      `/api/documents`,
    ];
    for (const url of bad) {
      const res = await api(ctx, owner.apiKey, 'GET', url);
      expect(res.status, url).toBe(422);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    const stranger = await createUser(ctx);
    const theirs = await api(ctx, stranger.apiKey, 'GET', `/api/documents?tenantId=${tenantId}`);
    expect(theirs.status).toBe(404);
    const random = await api(ctx, owner.apiKey, 'GET', `/api/documents?tenantId=${randomUUID()}`);
    expect(random.status).toBe(404);
  });

  it('serves the file until the URL expires, then 403 url_expired; tampering is refused', async () => {
    const pdf = makePdf({ title: 'expiring' });
    const a = await quickCreate(ctx, owner.apiKey, { tenantId, file: pdf });
    const b = await quickCreate(ctx, owner.apiKey, { tenantId });
    const url = new URL(a.body.document.downloadUrl);
    const local = (u: URL) => `${ctx.baseUrl}${u.pathname}${u.search}`;
    const ok = await fetch(local(url));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-disposition')).toContain('attachment; filename="contract.pdf"');
    expect(ok.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await ok.arrayBuffer()).equals(pdf)).toBe(true);

    const otherDoc = new URL(url);
    otherDoc.pathname = url.pathname.replace(a.body.document.id, b.body.document.id);
    const sealedKind = new URL(url);
    sealedKind.pathname = url.pathname.replace('/original', '/sealed');
    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const traversal = `${ctx.baseUrl}/api/files/..%2F..%2Fsecret.key/original${url.search}`;
    for (const target of [local(otherDoc), local(sealedKind), local(longer), traversal]) {
      const res = await fetch(target);
      expect([403, 422], target).toContain(res.status);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }

    await new Promise((r) => setTimeout(r, 3100));
    const expired = await fetch(local(url));
    expect(expired.status).toBe(403);
    expect((await expired.json()).code).toBe('url_expired');
    const fresh = await api(ctx, owner.apiKey, 'GET', `/api/documents/${a.body.document.id}`);
    const again = await fetch(local(new URL(fresh.body.document.downloadUrl)));
    expect(again.status).toBe(200);
  });
});
