import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../server/src/db/migrate.js';
import { newId, nowIso } from '../../server/src/lib/ids.js';
import { advanceDeliveries } from '../../server/src/modules/webhooks/deliveries.repo.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import {
  addWebhook,
  setupTenant,
  triggerDocumentEvent,
  waitForDelivery,
  WEBHOOK_TEST_ENV,
} from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

// A job that did its work is deleted with its outcome: the queue holds only what is left to do,
// however many e-mails and webhook attempts the service has made.
describe.each(ENGINES)('finished jobs on %s', (engine) => {
  let ctx: TestContext;
  let receiver: Receiver;
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    ctx = await createTestContext(engine, { env: { ...WEBHOOK_TEST_ENV, SMTP_URL: smtp.url } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
    await smtp.close();
  });

  const jobsByStatus = async () =>
    (
      await sql<{ kind: string; status: string; n: number | string }>`
        select kind, status, count(*) as n from jobs group by kind, status order by kind, status`.execute(
        ctx.db.kysely,
      )
    ).rows.map((r) => `${r.kind} ${r.status} ${Number(r.n)}`);

  it('leave no row: e-mails sent and webhook attempts made, with their outcomes kept', async () => {
    receiver.on('/finished', () => ({ status: 200 }));
    const { owner, tenant } = await setupTenant(ctx);
    const webhook = await addWebhook(ctx, owner.apiKey, tenant.id, receiver.url('/finished'));
    const events = [];
    for (let i = 0; i < 3; i++)
      events.push(await triggerDocumentEvent(ctx, owner.apiKey, tenant.id));
    for (const e of events) {
      const delivery = await waitForDelivery(ctx, owner.apiKey, tenant.id, webhook.id, e.eventId);
      expect(delivery.status).toBe('succeeded');
    }
    const sent = () => smtp.recipients.filter((r) => r.includes('alice@example.com')).length;
    for (const end = Date.now() + 10_000; sent() < 3 && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(sent()).toBe(3);
    await ctx.deps.jobs.idle();
    // The work is recorded where it belongs: one attempt per delivery, the invitations sent.
    const attempts = await ctx.db.kysely
      .selectFrom('webhook_attempts')
      .select(({ fn }) => fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(attempts.n)).toBe(3);
    const mails = await ctx.db.kysely
      .selectFrom('emails')
      .select(['status'])
      .where('to_address', '=', 'alice@example.com')
      .execute();
    expect(mails.map((m) => m.status)).toEqual(['sent', 'sent', 'sent']);
    expect(await jobsByStatus()).toEqual([]);
  });

  it('are deleted by migration 0015 when an older version left them done; others stay', async () => {
    await migrateTo(ctx.db, '0014-fields-on-documents');
    const at = nowIso();
    const job = (status: string) => ({
      id: newId(),
      kind: 'test.old',
      payload: '{}',
      run_at: '2999-01-01T00:00:00.000Z',
      status,
      attempts: 1,
      max_attempts: 1,
      created_at: at,
      updated_at: at,
    });
    await ctx.db.kysely
      .insertInto('jobs')
      .values([job('done'), job('done'), job('failed'), job('pending')] as never)
      .execute();
    await migrateToLatest(ctx.db);
    expect(await jobsByStatus()).toEqual(['test.old failed 1', 'test.old pending 1']);
    await ctx.db.kysely.deleteFrom('jobs').where('kind', '=', 'test.old').execute();
  });

  // PostgreSQL: a delivery's update after an attempt is written beside the old version on its
  // own page (a heap-only tuple update, no index touched), because migration 0035 leaves room
  // on the pages (docs/benchmarks.md, issue 53). SQLite has no such thing.
  it.runIf(engine === 'postgres')(
    'update their delivery in place: its pages keep room',
    async () => {
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
    },
  );
});
