import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../server/src/lib/ids.js';
import { advanceDeliveries } from '../../server/src/modules/webhooks/deliveries.repo.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { startReceiver, type Receiver } from './receiver.js';
import {
  addWebhook,
  setupTenant,
  triggerDocumentEvent,
  waitForDelivery,
  WEBHOOK_TEST_ENV,
} from './fixtures.js';

// PostgreSQL: a delivery's update after an attempt is written beside the old version on its own
// page (a heap-only tuple update, no index touched), because migration 0035 leaves room on the
// pages (docs/benchmarks.md, issue 53). SQLite has no such thing.
describe('webhook deliveries on postgres', () => {
  let ctx: TestContext;
  let receiver: Receiver;
  beforeAll(async () => {
    ctx = await createTestContext('postgres', { env: WEBHOOK_TEST_ENV });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  it('leave room on their pages, so an attempt updates its delivery without an index', async () => {
    receiver.on('/hot', () => ({ status: 200 }));
    const { owner, tenant } = await setupTenant(ctx);
    const webhook = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/hot'));
    const { eventId } = await triggerDocumentEvent(ctx, owner.apiKey, tenant.id);
    await waitForDelivery(ctx, owner.apiKey, tenant.id, webhook.id, eventId);
    const options = await sql<{ reloptions: string[] | null }>`
      select reloptions from pg_class where relname = 'webhook_deliveries'`.execute(ctx.db.kysely);
    expect(options.rows[0].reloptions).toEqual(['fillfactor=70']);

    // Pages of pending deliveries, filled as inserts fill them; then the batch statement moves
    // five deliveries of a page that would be full without the room (the first of those rows).
    // The room holds about nine new versions of a page's twenty-odd deliveries: a batch that
    // moves them all writes the rest elsewhere, as every update was before.
    // In a transaction that is rolled back: nothing stays.
    const rolledBack = new Error('rolled back');
    const done = ctx.db.kysely.transaction().execute(async (trx) => {
      const at = nowIso();
      const rows = Array.from({ length: 300 }, () => ({
        id: newId(),
        tenant_id: tenant.id,
        webhook_id: webhook.id,
        event_id: eventId,
        status: 'pending' as const,
        attempt_count: 0,
        created_at: at,
        dispatched_at: null,
        completed_at: null,
      }));
      await trx.insertInto('webhook_deliveries').values(rows).execute();
      const moved = rows.slice(0, 5).map((r) => r.id);
      await trx
        .insertInto('webhook_attempts')
        .values(
          moved.map((id) => ({
            delivery_id: id,
            attempt: 1,
            scheduled_at: at,
            started_at: at,
            finished_at: at,
            status_code: 200,
            duration_ms: 3,
            error: null,
          })),
        )
        .execute();
      // The backend's counts not yet reported (PostgreSQL 15: earlier transactions' too), before
      // and after the statement.
      const counts = async () => {
        const found = await sql<{ updated: string; hot: string }>`
          select n_tup_upd as updated, n_tup_hot_upd as hot from pg_stat_xact_user_tables
          where relname = 'webhook_deliveries'`.execute(trx);
        const [row] = found.rows;
        return { updated: Number(row.updated), hot: Number(row.hot) };
      };
      const before = await counts();
      await advanceDeliveries(trx, { ids: moved, attempt: 1, final: 'succeeded' });
      const after = await counts();
      expect({ updated: after.updated - before.updated, hot: after.hot - before.hot }).toEqual({
        updated: 5,
        hot: 5,
      });
      throw rolledBack;
    });
    await expect(done).rejects.toBe(rolledBack);
  });
});
