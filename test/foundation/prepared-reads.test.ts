import SQLite from 'better-sqlite3';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedQuery } from '../../server/src/db/prepared.js';
import { newId } from '../../server/src/lib/ids.js';
import { findMembership } from '../../server/src/modules/tenants/tenants.repo.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';

// The reads on every request's path are prepared queries (server/src/db/prepared.ts); on SQLite
// they run on a second, read-only connection. Both engines must give the same answers: committed
// data outside a transaction, the transaction's own writes inside it.
describe.each(ENGINES)('prepared reads on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { workers: false });
  });
  afterAll(() => ctx.close());

  // An owner, their tenant, and the owner's GET of it.
  async function ownerWithTenant() {
    const owner = await createUser(ctx);
    const tenant = await createTenant(ctx, owner.apiKey);
    const get = () =>
      ctx.app.inject({
        method: 'GET',
        url: `/api/tenants/${tenant.id}`,
        headers: { 'x-api-key': owner.apiKey },
      });
    return { owner, tenant, get };
  }

  it('answer requests from committed data while a transaction is open, and see it once committed', async () => {
    const { owner, tenant, get } = await ownerWithTenant();

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let insideSaw: unknown = 'not read';
    const transaction = ctx.db.kysely.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('memberships')
        .where('tenant_id', '=', tenant.id)
        .where('user_id', '=', owner.id)
        .execute();
      insideSaw = await findMembership(trx, tenant.id, owner.id);
      await held;
    });
    // Wait until the delete has run inside the open transaction.
    while (insideSaw === 'not read') await new Promise((r) => setTimeout(r, 5));
    expect(insideSaw).toBeUndefined();

    // Not committed yet: the request still sees the membership, and does not wait for the commit.
    const during = await get();
    expect(during.statusCode).toBe(200);
    expect(during.json().membership).toMatchObject({ tenantId: tenant.id, role: 'owner' });

    release();
    await transaction;
    const after = await get();
    expect(after.statusCode).toBe(404);
    expect(after.json().code).toBe('not_found');
  });

  // SQLite answers repeated reads from memory while its data_version is unchanged: a commit by
  // any other connection, as another process makes it, must be seen by the very next request.
  it('see a revocation and a removal committed by another connection at the next request', async () => {
    const { tenant, get } = await ownerWithTenant();
    for (let i = 0; i < 3; i++) expect((await get()).statusCode).toBe(200);

    await runElsewhere(`delete from memberships where tenant_id = '${tenant.id}'`);
    const removed = await get();
    expect(removed.statusCode).toBe(404);

    await runElsewhere(`update api_keys set revoked_at = '2026-01-01T00:00:00.000Z'`);
    const revoked = await get();
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().code).toBe('api_key_revoked');
  });

  async function runElsewhere(statement: string) {
    if (engine === 'sqlite') {
      const other = new SQLite(path.join(ctx.config.dataDir, 'signet.db'));
      try {
        other.exec(statement);
      } finally {
        other.close();
      }
      return;
    }
    const client = new pg.Client({ connectionString: ctx.config.databaseUrl! });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  // Lists are compiled once per length; each call must still get its own values in each slot.
  const insertJobs = preparedQuery(
    (q, p: { kind: string; rows: Array<{ id: string; payload: string }>; at: string }) =>
      q.insertInto('jobs').values(
        p.rows.map((r) => ({
          id: r.id,
          kind: p.kind,
          payload: r.payload,
          run_at: p.at,
          status: 'pending',
          attempts: 0,
          max_attempts: 1,
          created_at: p.at,
          updated_at: p.at,
        })),
      ),
  );
  const jobsByIds = preparedQuery((q, p: { ids: string[]; kind: string }) =>
    q
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('id', 'in', p.ids)
      .where('kind', '=', p.kind)
      .orderBy('payload'),
  );

  it('take list values of any length, of plain values or of objects, in and out of a transaction', async () => {
    const kind = `test.prepared.${newId()}`;
    const at = new Date().toISOString();
    const rows = ['a', 'b', 'c', 'd', 'e'].map((payload) => ({ id: newId(), payload }));
    await insertJobs(ctx.db.kysely, { kind, rows: rows.slice(0, 3), at });
    await insertJobs(ctx.db.kysely, { kind, rows: rows.slice(3), at });
    const payloads = async (ids: string[], q = ctx.db.kysely) =>
      (await jobsByIds(q, { ids, kind })).map((r) => r.payload);
    expect(await payloads(rows.map((r) => r.id))).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await payloads([rows[4]!.id, rows[0]!.id])).toEqual(['a', 'e']);
    expect(await payloads([rows[1]!.id, rows[2]!.id])).toEqual(['b', 'c']);
    expect(await payloads([rows[3]!.id])).toEqual(['d']);
    expect(await jobsByIds(ctx.db.kysely, { ids: [rows[0]!.id], kind: 'other' })).toEqual([]);
    await ctx.db.kysely.transaction().execute(async (trx) => {
      const more = [{ id: newId(), payload: 'f' }];
      await insertJobs(trx, { kind, rows: more, at });
      expect(await payloads([rows[0]!.id, more[0]!.id], trx)).toEqual(['a', 'f']);
    });
    expect(await payloads([rows[0]!.id])).toEqual(['a']);
  });

  // Whole rows as values: the stand-in has the row's own fields, and another set of fields is
  // another shape, compiled on its own (a column left out takes its default).
  const insertJob = preparedQuery((q, p: { job: Record<string, unknown> }) =>
    q.insertInto('jobs').values(p.job as never),
  );
  const insertJobRows = preparedQuery((q, p: { jobs: Array<Record<string, unknown>> }) =>
    q.insertInto('jobs').values(p.jobs as never),
  );
  const jobRows = preparedQuery((q, p: { kind: string }) =>
    q
      .selectFrom('jobs')
      .select(['payload', 'attempts', 'lease_until'])
      .where('kind', '=', p.kind)
      .orderBy('payload'),
  );

  it('take whole rows, alone or in lists, with their own fields', async () => {
    const kind = `test.rows.${newId()}`;
    const at = new Date().toISOString();
    const job = (payload: string, attempts: number) => ({
      id: newId(),
      kind,
      payload,
      run_at: at,
      status: 'done',
      attempts,
      max_attempts: 1,
      created_at: at,
      updated_at: at,
    });
    await insertJob(ctx.db.kysely, { job: job('a', 1) });
    await insertJob(ctx.db.kysely, { job: job('b', 2) });
    await insertJob(ctx.db.kysely, { job: { ...job('c', 3), lease_until: at } });
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await insertJobRows(trx, { jobs: [job('d', 4), job('e', 5)] });
      await insertJobRows(trx, { jobs: [job('f', 6), { ...job('g', 7), lease_until: at }] });
    });
    expect(await jobRows(ctx.db.kysely, { kind })).toEqual([
      { payload: 'a', attempts: 1, lease_until: null },
      { payload: 'b', attempts: 2, lease_until: null },
      { payload: 'c', attempts: 3, lease_until: at },
      { payload: 'd', attempts: 4, lease_until: null },
      { payload: 'e', attempts: 5, lease_until: null },
      { payload: 'f', attempts: 6, lease_until: null },
      { payload: 'g', attempts: 7, lease_until: at },
    ]);
  });

  // Answers are remembered per query and values (on SQLite, until something is committed): two
  // calls share one only when their values are the same, whatever characters the values hold.
  const jobByKindAndPayload = preparedQuery((q, p: { kind: string; payload: string }) =>
    q
      .selectFrom('jobs')
      .select('payload')
      .where('kind', '=', p.kind)
      .where('payload', '=', p.payload),
  );

  it('keep apart the answers of values that differ only in where a control character falls', async () => {
    const stem = `test.keys.${newId()}`;
    const at = new Date().toISOString();
    // Joined with U+0001, both pairs would read "<stem>\u0001a\u0001b".
    const pairs = [
      { kind: `${stem}\u0001a`, payload: 'b' },
      { kind: stem, payload: 'a\u0001b' },
      { kind: stem, payload: '["a"]' },
    ];
    await insertJobs(ctx.db.kysely, {
      kind: pairs[0]!.kind,
      rows: [{ id: newId(), payload: 'b' }],
      at,
    });
    for (const pair of pairs) {
      expect(await jobByKindAndPayload(ctx.db.kysely, pair)).toEqual(
        pair === pairs[0] ? [{ payload: 'b' }] : [],
      );
    }
    // Asked again in the same order, from the remembered answers.
    for (const pair of pairs) {
      expect(await jobByKindAndPayload(ctx.db.kysely, pair)).toEqual(
        pair === pairs[0] ? [{ payload: 'b' }] : [],
      );
    }
  });
});
