import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMembership } from '../../server/src/modules/tenants/tenants.repo.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';

// On PostgreSQL the prepared queries (server/src/db/prepared.ts) and every other statement with
// parameters run as named prepared statements, parsed and planned once per connection (db/postgres.ts); DATABASE_PREPARED_STATEMENTS
// =false turns that off for a pooler that cannot keep them.
const postgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

// The names prepared on the connection running `db`'s queries.
type Handle = TestContext['db']['kysely'];
const preparedNames = async (db: Handle) =>
  (
    await sql<{ name: string; statement: string }>`
      select name, statement from pg_prepared_statements`.execute(db)
  ).rows;

postgres('named prepared statements on PostgreSQL', () => {
  let ctx: TestContext;
  let off: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('postgres', { workers: false });
    off = await createTestContext('postgres', {
      workers: false,
      env: { DATABASE_PREPARED_STATEMENTS: 'false' },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await off?.close();
  });

  async function member(context: TestContext) {
    const owner = await createUser(context);
    const tenant = await createTenant(context, owner.apiKey);
    return { owner, tenant };
  }

  it('prepare a hot query once per connection and run it by name', async () => {
    const { owner, tenant } = await member(ctx);
    await ctx.db.kysely.transaction().execute(async (trx) => {
      expect((await findMembership(trx, tenant.id, owner.id))?.role).toBe('owner');
      expect((await findMembership(trx, tenant.id, owner.id))?.role).toBe('owner');
      const named = (await preparedNames(trx)).filter((s) =>
        s.statement.startsWith('select * from "memberships" where'),
      );
      expect(named.length).toBe(1);
      expect(named[0].name).toMatch(/^signet_\d+$/);
    });
  });

  it('name any statement with parameters, not only the prepared queries', async () => {
    const { tenant } = await member(ctx);
    await ctx.db.kysely.transaction().execute(async (trx) => {
      const read = () => trx.selectFrom('folders').select('id').where('tenant_id', '=', tenant.id);
      await read().execute();
      await read().execute();
      const named = (await preparedNames(trx)).filter((s) =>
        s.statement.startsWith('select "id" from "folders" where "tenant_id" = $1'),
      );
      expect(named.map((s) => s.name)).toEqual([expect.stringMatching(/^signet_\d+$/)]);
      // Without parameters (begin, commit, DDL), nothing is named.
      expect((await preparedNames(trx)).some((s) => s.statement === 'begin')).toBe(false);
    });
  });

  it('run a query again when a migration has changed its table under the plan', async () => {
    const { owner, tenant } = await member(ctx);
    // Prepared on every connection of the pool, as under load.
    await Promise.all(
      Array.from({ length: 10 }, () => findMembership(ctx.db.kysely, tenant.id, owner.id)),
    );
    await sql`alter table memberships add column added_by_newer_version text`.execute(
      ctx.db.kysely,
    );
    try {
      // Outside a transaction each read answers: the first is run again under a new name.
      const reads = await Promise.all(
        Array.from({ length: 10 }, () => findMembership(ctx.db.kysely, tenant.id, owner.id)),
      );
      for (const read of reads) expect(read?.role).toBe('owner');
      // Over HTTP too.
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/tenants/${tenant.id}`,
        headers: { 'x-api-key': owner.apiKey },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await sql`alter table memberships drop column added_by_newer_version`.execute(ctx.db.kysely);
    }
    const again = await findMembership(ctx.db.kysely, tenant.id, owner.id);
    expect(again?.role).toBe('owner');
  });

  it('prepare nothing with DATABASE_PREPARED_STATEMENTS=false', async () => {
    const { owner, tenant } = await member(off);
    expect(off.config.databasePreparedStatements).toBe(false);
    await off.db.kysely.transaction().execute(async (trx) => {
      expect((await findMembership(trx, tenant.id, owner.id))?.role).toBe('owner');
      expect(await preparedNames(trx)).toEqual([]);
    });
  });
});
