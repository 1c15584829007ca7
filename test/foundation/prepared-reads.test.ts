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

  it('answer requests from committed data while a transaction is open, and see it once committed', async () => {
    const owner = await createUser(ctx);
    const tenant = await createTenant(ctx, owner.apiKey);
    const get = () =>
      ctx.app.inject({
        method: 'GET',
        url: `/api/tenants/${tenant.id}`,
        headers: { 'x-api-key': owner.apiKey },
      });

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
});
