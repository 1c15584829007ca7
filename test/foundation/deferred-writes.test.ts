import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferWrite } from '../../server/src/db/deferred-writes.js';
import { newId, nowIso } from '../../server/src/lib/ids.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';

// Writes whose answer nobody reads (server/src/db/deferred-writes.ts) wait, inside a PostgreSQL
// transaction, for the transaction's next statement and go with it as WITH queries; on SQLite
// and outside a transaction they run at once. Either way the transaction must read and commit
// exactly what it would have with each write run on its own.
describe.each(ENGINES)('deferred writes on %s', (engine) => {
  let ctx: TestContext;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { workers: false });
    const owner = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(() => ctx.close());

  const folder = (name: string, parentId: string | null = null) => ({
    id: newId(),
    tenant_id: tenantId,
    name,
    parent_id: parentId,
    created_at: nowIso(),
    updated_at: nowIso(),
  });
  const namesOf = async (ids: string[]) =>
    (
      await ctx.db.kysely
        .selectFrom('folders')
        .select(['id', 'name', 'parent_id'])
        .where('id', 'in', ids)
        .orderBy('name')
        .execute()
    ).map((f) => [f.name, f.parent_id]);

  it('commit every write with its own values, in order, the later ones seeing the earlier', async () => {
    const [a, b, c] = [folder('deferred a'), folder('deferred b'), folder('deferred c')];
    const child = { ...folder('deferred child'), parent_id: a.id };
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await deferWrite(trx, trx.insertInto('folders').values(a));
      await deferWrite(trx, trx.insertInto('folders').values([b, c]));
      // A child of a folder written in the same batch: its foreign key holds.
      await deferWrite(trx, trx.insertInto('folders').values(child));
      // An update of rows the batch inserts sees them (the batch goes first).
      await deferWrite(
        trx,
        trx.updateTable('folders').set({ name: 'deferred b, renamed' }).where('id', '=', b.id),
      );
      // A read of the table sees every write before it.
      const seen = await trx
        .selectFrom('folders')
        .select('name')
        .where('id', 'in', [a.id, b.id, c.id, child.id])
        .orderBy('name')
        .execute();
      expect(seen.map((f) => f.name)).toEqual([
        'deferred a',
        'deferred b, renamed',
        'deferred c',
        'deferred child',
      ]);
      // Writes left waiting at the end go before the commit.
      await deferWrite(
        trx,
        trx.updateTable('folders').set({ name: 'deferred c, renamed' }).where('id', '=', c.id),
      );
    });
    expect(await namesOf([a.id, b.id, c.id, child.id])).toEqual([
      ['deferred a', null],
      ['deferred b, renamed', null],
      ['deferred c, renamed', null],
      ['deferred child', a.id],
    ]);
  });

  it('send the waiting writes with a statement on other tables, in one round trip', async () => {
    const a = folder('deferred with a read');
    const answer = await ctx.db.kysely.transaction().execute(async (trx) => {
      await deferWrite(trx, trx.insertInto('folders').values(a));
      // The tenant's row, read by a statement of its own WITH list, the folder's values before
      // its own.
      const read = await trx
        .with('t', (q) => q.selectFrom('tenants').select('name').where('id', '=', tenantId))
        .selectFrom('t')
        .select('name')
        .execute();
      if (engine === 'postgres') {
        const statements = (
          await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
            trx,
          )
        ).rows.map((s) => s.statement);
        expect(
          statements.some(
            (s) =>
              s.startsWith('with "deferred_1" as (insert into "folders"') &&
              s.includes(', "t" as (select "name" from "tenants" where "id" = $7)'),
          ),
        ).toBe(true);
      }
      return read;
    });
    expect(answer).toHaveLength(1);
    expect(await namesOf([a.id])).toEqual([['deferred with a read', null]]);
  });

  it('write nothing when the transaction rolls back', async () => {
    const a = folder('deferred then rolled back');
    await expect(
      ctx.db.kysely.transaction().execute(async (trx) => {
        await deferWrite(trx, trx.insertInto('folders').values(a));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await namesOf([a.id])).toEqual([]);
  });

  it('fail the transaction, and write nothing of it, when a waiting write fails', async () => {
    const a = folder('deferred before a bad one');
    const orphan = { ...folder('deferred orphan'), parent_id: newId() };
    await expect(
      ctx.db.kysely.transaction().execute(async (trx) => {
        await deferWrite(trx, trx.insertInto('folders').values(a));
        await deferWrite(trx, trx.insertInto('folders').values(orphan));
      }),
    ).rejects.toThrow(/foreign key/i);
    expect(await namesOf([a.id, orphan.id])).toEqual([]);
    // The connection goes back to the pool clean: the next transaction commits.
    const b = folder('deferred after a failure');
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await deferWrite(trx, trx.insertInto('folders').values(b));
    });
    expect(await namesOf([b.id])).toEqual([['deferred after a failure', null]]);
  });

  it('run at once outside a transaction', async () => {
    const a = folder('deferred outside a transaction');
    await deferWrite(ctx.db.kysely, ctx.db.kysely.insertInto('folders').values(a));
    expect(await namesOf([a.id])).toEqual([['deferred outside a transaction', null]]);
  });
});
