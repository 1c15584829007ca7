import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser, uniqueEmail } from '../helpers/factories.js';

describe.each(ENGINES)('e-mail volume a tenant can cause, on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      listen: true,
      env: { MAIL_DAILY_LIMIT_PER_TENANT: '15' },
    });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  const settings = (body: unknown) =>
    api(ctx, apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, body);
  const emailsTo = async (to: string) =>
    (await ctx.db.kysely.selectFrom('emails').select('id').where('to_address', '=', to).execute())
      .length;

  async function sent(signees: number) {
    const emails = Array.from({ length: signees }, () => uniqueEmail('volume'));
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      signees: emails.map((email, i) => ({ email, name: `Signee ${i}` })),
    });
    expect(created.status).toBe(201);
    const id = created.body.document.id as string;
    const send = await api(ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    return { id, emails, send };
  }

  it('keeps reminders at least 15 minutes apart, whatever was saved before', async () => {
    for (const minutes of [0, 14]) {
      const res = await settings({ reminderCooldownMinutes: minutes });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].path).toBe('body.reminderCooldownMinutes');
    }
    expect((await settings({ reminderCooldownMinutes: 15 })).status).toBe(200);
    // A value stored before the minimum existed.
    await ctx.db.kysely
      .updateTable('tenants')
      .set({ reminder_cooldown_minutes: 0 })
      .where('id', '=', tenantId)
      .execute();
    const { id, send } = await sent(1);
    expect(send.status).toBe(200);
    const before = Date.now();
    const reminded = await api(ctx, apiKey, 'POST', `/api/documents/${id}/remind`);
    expect(reminded.status).toBe(200);
    const until = Date.parse(reminded.body.document.reminderCooldownUntil);
    expect(until - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
    const again = await api(ctx, apiKey, 'POST', `/api/documents/${id}/remind`);
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('reminder_cooldown');
  });

  it('reminds each signee at most ten times', async () => {
    const { id, emails } = await sent(1);
    for (let i = 0; i < 12; i++) {
      // As if the cooldown had passed each time, and the hour that limits reminders to one
      // address from all tenants (test/security/email-abuse.test.ts).
      await ctx.db.kysely
        .updateTable('documents')
        .set({ reminder_cooldown_until: null })
        .where('id', '=', id)
        .execute();
      await ctx.db.kysely.deleteFrom('recipient_mail_limits').execute();
      const res = await api(ctx, apiKey, 'POST', `/api/documents/${id}/remind`);
      if (i < 10) expect(res.status, `reminder ${i + 1}`).toBe(200);
      else {
        expect(res.status).toBe(429);
        expect(res.body.code).toBe('reminder_limit_reached');
      }
    }
    // The invitation and ten reminders.
    expect(await emailsTo(emails[0])).toBe(11);
  });

  it("refuses what goes over the tenant's daily quota, changing nothing, and counts it", async () => {
    // Earlier tests here queued 1 + 1 + 1 + 10 = 13 of the 15.
    const credits = async () =>
      (await api(ctx, apiKey, 'GET', `/api/tenants/${tenantId}/credits`)).body.balance as number;
    const balance = await credits();
    const { id, emails, send } = await sent(3);
    expect(send.status).toBe(429);
    expect(send.body.code).toBe('mail_quota_exceeded');
    const doc = await api(ctx, apiKey, 'GET', `/api/documents/${id}`);
    expect(doc.body.document.status).toBe('draft');
    expect(await credits()).toBe(balance);
    for (const email of emails) expect(await emailsTo(email)).toBe(0);
    const metrics = await ctx.app.inject('/metrics');
    expect(metrics.body).toMatch(/^signet_emails_refused_total [1-9]/m);
    expect(metrics.body).toMatch(/^signet_emails_queued_total [1-9]/m);
    // Two more fit.
    expect((await sent(2)).send.status).toBe(200);
  });
});
