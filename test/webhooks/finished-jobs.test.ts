import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../server/src/db/migrate.js';
import { newId, nowIso } from '../../server/src/lib/ids.js';
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
});
