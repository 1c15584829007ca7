import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../server/src/lib/ids.js';
import { createSignetClient } from '../../sdk/src/client.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';

describe.each(ENGINES)('folders per tenant, and their listing in pages, on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
  });
  afterAll(() => ctx.close());

  it('caps a tenant at 1000 folders and lists them a page at a time, by name', async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const url = `/api/tenants/${tenantId}/folders`;
    const first = await api(ctx, owner.apiKey, 'POST', url, { name: 'Folder 0' });
    expect(first.status).toBe(201);
    // 999 more, written straight to the table (a thousand POSTs prove nothing more).
    const now = nowIso();
    const rows = Array.from({ length: 999 }, (_, i) => ({
      id: newId(),
      tenant_id: tenantId,
      name: `Folder ${i + 1}`,
      parent_id: null,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      await ctx.db.kysely
        .insertInto('folders')
        .values(rows.slice(i, i + 200))
        .execute();
    }
    const refused = await api(ctx, owner.apiKey, 'POST', url, { name: 'One too many' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('folder_limit_reached');
    expect(refused.body.detail).toContain('1000 folders');

    // Without limit: the first 100, by name as people sort them, and a cursor.
    const plain = await api(ctx, owner.apiKey, 'GET', url);
    expect(plain.status).toBe(200);
    expect(plain.body.folders).toHaveLength(100);
    expect(plain.body.folders.slice(0, 3).map((f: { name: string }) => f.name)).toEqual([
      'Folder 0',
      'Folder 1',
      'Folder 2',
    ]);
    expect(typeof plain.body.nextCursor).toBe('string');

    // Following the cursors gives every folder once, in order; the last page says so.
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { folders: { name: string }[]; nextCursor: string } } =
        await api(
          ctx,
          owner.apiKey,
          'GET',
          `${url}?limit=300${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
      expect(page.status).toBe(200);
      names.push(...page.body.folders.map((f) => f.name));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(names).toEqual(Array.from({ length: 1000 }, (_, i) => `Folder ${i}`));
    expect((await api(ctx, owner.apiKey, 'GET', `${url}?limit=1001`)).status).toBe(422);
    expect((await api(ctx, owner.apiKey, 'GET', `${url}?cursor=nonsense`)).status).toBe(422);

    // The SDK follows the pages; deleting one makes room for one more.
    const client = createSignetClient({ baseUrl: ctx.baseUrl, apiKey: owner.apiKey });
    expect(await client.folders.list(tenantId)).toHaveLength(1000);
    await client.folders.delete(tenantId, first.body.folder.id);
    expect((await api(ctx, owner.apiKey, 'POST', url, { name: 'Room again' })).status).toBe(201);
  });
});
