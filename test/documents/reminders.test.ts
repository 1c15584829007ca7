import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMIND_JOB } from '../../server/src/modules/documents/reminder-policy.js';
import { sendAutomaticReminder } from '../../server/src/modules/documents/reminders.job.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingCall } from '../helpers/signing.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';
import { addWebhook, WEBHOOK_TEST_ENV } from '../webhooks/fixtures.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

// Automatic reminders (decisions §12). No test waits for days: `passDays` moves a document's
// invitations and its due reminder jobs that many days into the past, as if the time had passed,
// and lets the job runner find what came due.
const DAY_MS = 86_400_000;
const to = (m: ParsedMail) =>
  (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => v.address));

describe.each(ENGINES)('automatic reminders on %s', (engine) => {
  let smtp: SmtpSink;
  let receiver: Receiver;
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    receiver = await startReceiver();
    ctx = await createTestContext(engine, {
      listen: true,
      env: { SMTP_URL: smtp.url, ...WEBHOOK_TEST_ENV },
    });
    owner = await createUser(ctx, { name: 'Sam Sender' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
    await receiver?.close();
  });

  const settings = (patch: object) =>
    api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, patch);
  const create = async (signees: Array<{ email: string; name: string }>, extra = {}) => {
    const res = await quickCreate(ctx, owner.apiKey, { tenantId, signees, extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.document;
  };
  const send = async (id: string) =>
    expect(
      (await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(200);
  const get = async (id: string) =>
    (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document;
  const reminders = async (id: string) =>
    (
      (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
        .auditTrail as Array<{ action: string; actor: string; signeeId: string; details: unknown }>
    ).filter((e) => e.action === 'reminded');
  const remindersTo = (address: string) =>
    smtp.messages.filter((m) => to(m).includes(address) && /reminder/i.test(m.subject ?? ''));
  const pendingJobs = (documentId: string) =>
    ctx.db.kysely
      .selectFrom('jobs')
      .select(['run_at', 'payload'])
      .where('kind', '=', REMIND_JOB)
      .where('status', '=', 'pending')
      .where('payload', 'like', `%${documentId}%`)
      .orderBy('run_at')
      .execute();
  const shift = (iso: string, days: number) =>
    new Date(Date.parse(iso) - days * DAY_MS).toISOString();

  // The clock control: `days` pass for this document's invitations and reminder jobs.
  async function passDays(documentId: string, days: number) {
    const signees = await ctx.db.kysely
      .selectFrom('signees')
      .select(['id', 'invited_at'])
      .where('document_id', '=', documentId)
      .execute();
    for (const s of signees) {
      if (!s.invited_at) continue;
      await ctx.db.kysely
        .updateTable('signees')
        .set({ invited_at: shift(s.invited_at, days) })
        .where('id', '=', s.id)
        .execute();
    }
    for (const job of await pendingJobs(documentId)) {
      await ctx.db.kysely
        .updateTable('jobs')
        .set({ run_at: shift(job.run_at, days) })
        .where('kind', '=', REMIND_JOB)
        .where('status', '=', 'pending')
        .where('payload', '=', job.payload)
        .execute();
    }
    ctx.deps.jobs.wake();
    await new Promise((r) => setTimeout(r, 300));
    await ctx.deps.jobs.idle();
  }

  it("sends the tenant's reminders at their days, each audited and evented, up to the maximum", async () => {
    await addWebhook(ctx, owner.apiKey, tenantId, receiver.url(`/reminders/${engine}`));
    const saved = await settings({
      reminderFirstAfterDays: 2,
      reminderEveryDays: 3,
      reminderMax: 2,
      webhookEvents: ['signee.reminded'],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toMatchObject({
      reminderFirstAfterDays: 2,
      reminderEveryDays: 3,
      reminderMax: 2,
    });
    const ann = `ann.remind.${engine}@example.com`;
    const doc = await create([{ email: ann, name: 'Ann Example' }], { name: 'Lease' });
    // A draft takes the tenant's defaults when it is sent, and shows them from then on.
    expect(doc.reminders).toBeNull();
    await send(doc.id);
    expect((await get(doc.id)).reminders).toEqual({ firstAfterDays: 2, everyDays: 3, max: 2 });
    const [first] = await pendingJobs(doc.id);
    const invitedAt = (await get(doc.id)).createdAt;
    expect(Date.parse(first.run_at) - Date.parse(invitedAt)).toBeGreaterThan(2 * DAY_MS - 60_000);

    // One day passes: nothing yet. A second day: the first reminder.
    await passDays(doc.id, 1);
    expect(await reminders(doc.id)).toHaveLength(0);
    await passDays(doc.id, 1);
    await expect.poll(() => remindersTo(ann).length, { timeout: 10_000 }).toBe(1);
    const [one] = await reminders(doc.id);
    expect(one).toMatchObject({ actor: 'system', details: { automatic: true, n: 1 } });
    expect(remindersTo(ann)[0].text).toMatch(/\/sign\/sg_/);
    // Three more days: the second, and then no more (the maximum is 2).
    await passDays(doc.id, 3);
    await expect.poll(() => remindersTo(ann).length, { timeout: 10_000 }).toBe(2);
    expect(await pendingJobs(doc.id)).toEqual([]);
    await passDays(doc.id, 30);
    expect(remindersTo(ann)).toHaveLength(2);
    expect((await reminders(doc.id)).map((e) => (e.details as { n: number }).n)).toEqual([1, 2]);
    // Each one a signee.reminded event, since the tenant opted in.
    await expect
      .poll(
        () =>
          receiver
            .received(`/reminders/${engine}`)
            .map((r) => JSON.parse(r.body.toString()))
            .filter((e) => e.type === 'signee.reminded' && e.data.documentId === doc.id).length,
        { timeout: 10_000 },
      )
      .toBe(2);
    await settings({ reminderFirstAfterDays: null, reminderEveryDays: null, reminderMax: 3 });
  });

  it('reminds only the signees whose turn it is, from their own invitation', async () => {
    const ben = `ben.remind.${engine}@example.com`;
    const cid = `cid.remind.${engine}@example.com`;
    const doc = await create(
      [
        { email: ben, name: 'Ben Example', signingOrder: 1 },
        { email: cid, name: 'Cid Example', signingOrder: 2 },
      ] as unknown as Array<{ email: string; name: string }>,
      { signingOrderEnabled: 'true', reminders: JSON.stringify({ everyDays: 2 }) },
    );
    expect(doc.reminders).toEqual({ firstAfterDays: 2, everyDays: 2, max: 3 });
    await send(doc.id);
    expect(await pendingJobs(doc.id)).toHaveLength(1);
    await passDays(doc.id, 2);
    await expect.poll(() => remindersTo(ben).length, { timeout: 10_000 }).toBe(1);
    expect(remindersTo(cid)).toHaveLength(0);

    // Ben signs: Cid is invited now, and is reminded two days after that, not before.
    const invitation = await smtp.waitFor((m) => to(m).includes(ben), 10_000);
    const token = /\/sign\/(sg_[\w-]+)/.exec(invitation.text ?? '')![1];
    const signed = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Ben Example' },
    });
    expect(signed.status).toBe(200);
    await smtp.waitFor((m) => to(m).includes(cid) && !/reminder/i.test(m.subject ?? ''), 10_000);
    await passDays(doc.id, 1);
    expect(remindersTo(cid)).toHaveLength(0);
    await passDays(doc.id, 1);
    await expect.poll(() => remindersTo(cid).length, { timeout: 10_000 }).toBe(1);
    expect(remindersTo(ben)).toHaveLength(1);
  });

  it('sends each reminder once however often its job runs, and waits out the manual cooldown', async () => {
    const dan = `dan.remind.${engine}@example.com`;
    const doc = await create([{ email: dan, name: 'Dan Example' }], {
      reminders: JSON.stringify({ firstAfterDays: 1 }),
    });
    await send(doc.id);
    const [job] = await pendingJobs(doc.id);
    const due = JSON.parse(job.payload) as { documentId: string; signeeId: string; n: number };
    // A hand-sent reminder starts the cooldown; the automatic one due meanwhile waits for its end.
    expect((await api(ctx, owner.apiKey, 'POST', `/api/documents/${doc.id}/remind`)).status).toBe(
      200,
    );
    await expect.poll(() => remindersTo(dan).length, { timeout: 10_000 }).toBe(1);
    await passDays(doc.id, 1);
    expect(await reminders(doc.id)).toHaveLength(1);
    const cooldownUntil = (await get(doc.id)).reminderCooldownUntil as string;
    const [waiting] = await pendingJobs(doc.id);
    expect(waiting.run_at).toBe(cooldownUntil);

    // The cooldown over, the same reminder run three times at once: sent once.
    await ctx.db.kysely
      .updateTable('documents')
      .set({ reminder_cooldown_until: null })
      .where('id', '=', doc.id)
      .execute();
    const deps = { db: ctx.db, config: ctx.config, wakeJobs: () => ctx.deps.jobs.wake() };
    const runs = await Promise.all([1, 2, 3].map(() => sendAutomaticReminder(deps, due)));
    expect(runs.filter(Boolean)).toHaveLength(1);
    await expect.poll(() => remindersTo(dan).length, { timeout: 10_000 }).toBe(2);
    const automatic = (await reminders(doc.id)).filter((e) => e.actor === 'system');
    expect(automatic).toHaveLength(1);
    // The job still waiting for the cooldown's end finds it sent.
    expect(await sendAutomaticReminder(deps, due)).toBe(false);
  });

  it('takes a policy per document: off, changed while in process, from a template', async () => {
    await settings({ reminderFirstAfterDays: 1 });
    const eve = `eve.remind.${engine}@example.com`;
    const off = await create([{ email: eve, name: 'Eve Example' }], { reminders: 'null' });
    await send(off.id);
    expect((await get(off.id)).reminders).toBeNull();
    expect(await pendingJobs(off.id)).toEqual([]);

    // Turned on while in process, already overdue for an invitation five days old: sent now.
    await passDays(off.id, 5);
    const on = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${off.id}`, {
      reminders: { firstAfterDays: 4, everyDays: 7, max: 2 },
    });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.document.reminders).toEqual({ firstAfterDays: 4, everyDays: 7, max: 2 });
    await expect.poll(() => remindersTo(eve).length, { timeout: 10_000 }).toBe(1);
    // Turned off again: the next one, due in seven days, never comes.
    expect(
      (await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${off.id}`, { reminders: null }))
        .status,
    ).toBe(200);
    await passDays(off.id, 8);
    expect(remindersTo(eve)).toHaveLength(1);

    const template = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template: { name: 'NDA', roles: [{ name: 'Client' }] },
      fields: signatureFields(1),
    });
    const made = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/templates/${template.body.template.id}/documents`,
      {
        signees: [{ role: 'Client', email: `fay.remind.${engine}@example.com`, name: 'Fay' }],
        reminders: { firstAfterDays: 5, max: 1 },
        send: true,
      },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.document.reminders).toEqual({ firstAfterDays: 5, everyDays: null, max: 1 });
    await settings({ reminderFirstAfterDays: null });
  });

  it('refuses bad policies with 422 and changes nothing', async () => {
    const signees = [{ email: `gil.remind.${engine}@example.com`, name: 'Gil' }];
    for (const [value, path] of [
      ['{}', 'reminders'],
      ['{"firstAfterDays":0}', 'reminders.firstAfterDays'],
      ['{"everyDays":1.5}', 'reminders.everyDays'],
      ['{"everyDays":2,"max":11}', 'reminders.max'],
      ['{"everyDays":2,"often":true}', 'reminders'],
      ['weekly', 'reminders'],
    ] as const) {
      const res = await quickCreate(ctx, owner.apiKey, {
        tenantId,
        signees,
        extra: { reminders: value },
      });
      expect(res.status, value).toBe(422);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    }
    for (const patch of [
      { reminderFirstAfterDays: 0 },
      { reminderEveryDays: 366 },
      { reminderMax: 0 },
      { reminderMax: 11 },
    ]) {
      expect((await settings(patch)).status).toBe(422);
    }
    const doc = await create(signees);
    await send(doc.id);
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${doc.id}/cancel`);
    const closed = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${doc.id}`, {
      reminders: { everyDays: 1 },
    });
    expect(closed.status).toBe(409);
  });
});
