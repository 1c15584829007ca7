import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../server/src/db/migrate.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';

describe.each(ENGINES)('upgrading to folders and search (migration 0010) on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
  });
  afterAll(() => ctx.close());

  it('gives documents made before it their search text, and rolls back cleanly', async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const made = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email: 'Juergen@Example.com', name: 'Jürgen Groß' }],
      extra: { name: 'Rahmenvertrag' },
    });
    expect(made.status).toBe(201);
    const id = made.body.document.id as string;

    await migrateTo(ctx.db, '0009-seal-mode');
    const columns = (await ctx.db.kysely.introspection.getTables()).find(
      (t) => t.name === 'documents',
    )?.columns;
    expect(columns?.map((c) => c.name)).not.toContain('search_text');
    await migrateToLatest(ctx.db);

    const found = async (q: string) =>
      (
        await api(
          ctx,
          owner.apiKey,
          'GET',
          `/api/documents?tenantId=${tenantId}&q=${encodeURIComponent(q)}`,
        )
      ).body.documents.map((d: { id: string }) => d.id);
    expect(await found('rahmen')).toEqual([id]);
    expect(await found('GROSS')).toEqual([]);
    expect(await found('groß')).toEqual([id]);
    expect(await found('JUERGEN@example')).toEqual([id]);
  });
});
