import SQLite from 'better-sqlite3';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
