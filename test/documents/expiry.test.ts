import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingCall, waitForStatus } from '../helpers/signing.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';
import { addWebhook, WEBHOOK_TEST_ENV } from '../webhooks/fixtures.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

// Expiry (decisions §12): a document still in process at its deadline is cancelled with
// cancelReason "expired", once; signees who held a link are told; links answer 410. Deadlines
// are set seconds ahead, or moved into the past in the database where a test needs a job that
// has not run yet: no test waits for days.
const to = (m: ParsedMail) =>
  (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => v.address));
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

describe.each(ENGINES)('expiry on %s', (engine) => {
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

  const mailTo = (address: string, subject: RegExp) =>
    smtp.waitFor((m) => to(m).includes(address) && subject.test(m.subject ?? ''), 20_000);
  const tokenFor = async (address: string) => {
    const invitation = await mailTo(address, /sign/i);
    return /\/sign\/(sg_[\w-]+)/.exec(invitation.text ?? '')![1];
  };
  const create = async (signees: Array<{ email: string; name: string }>, extra = {}) => {
    const res = await quickCreate(ctx, owner.apiKey, { tenantId, signees, extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.document;
  };
  const send = (id: string) =>
    api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
  const get = async (id: string) =>
    (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document;
  const trail = async (id: string) =>
    (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail as Array<{ action: string; actor: string; details: unknown }>;

  it('cancels a document still in process at its deadline, once, telling who held a link', async () => {
    const hook = await addWebhook(ctx, owner.apiKey, tenantId, receiver.url(`/expiry/${engine}`));
    expect(hook.id).toBeTruthy();
    const ann = `ann.expiry.${engine}@example.com`;
    const ben = `ben.expiry.${engine}@example.com`;
    const expiresAt = inSeconds(4);
    const doc = await create(
      [
        { email: ann, name: 'Ann Example' },
        { email: ben, name: 'Ben Example' },
      ],
      { name: 'Lease', expiresAt },
    );
    expect(doc.expiresAt).toBe(expiresAt);
    expect(doc.cancelReason).toBeNull();
    expect((await send(doc.id)).status).toBe(200);
    const annToken = await tokenFor(ann);
    const benToken = await tokenFor(ben);
    const signed = await signingCall(ctx, annToken, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Ann Example' },
    });
    expect(signed.status).toBe(200);

    const cancelled = await waitForStatus(ctx, owner.apiKey, doc.id, 'cancelled', 20_000);
    expect(cancelled.document).toMatchObject({ cancelReason: 'expired', expiresAt });
    expect(Date.parse(cancelled.document.updatedAt)).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    const entries = (await trail(doc.id)).filter((e) => e.action === 'expired');
    expect(entries).toEqual([expect.objectContaining({ actor: 'system', details: { expiresAt } })]);
    // Ben held a link and had not signed: told, in words for an expiry. Ann had signed.
    const notice = await mailTo(ben, /"Lease" has expired/);
    expect(notice.text).toContain('ran out before everyone had signed');
    expect(notice.text).toContain('"Sam Sender"');
    // The same status event as a cancel, to the tenant's webhook.
    const statuses = async () =>
      receiver
        .received(`/expiry/${engine}`)
        .map((r) => JSON.parse(r.body.toString()))
        .filter((e) => e.data?.documentId === doc.id && e.data?.newStatus === 'cancelled');
    // draft → in_process, then in_process → cancelled (signee events are not opted into).
    await receiver.waitFor(`/expiry/${engine}`, 2);
    await expect.poll(async () => (await statuses()).length, { timeout: 10_000 }).toBe(1);
    expect((await statuses())[0].data.oldStatus).toBe('in_process');
    // Links answer 410, naming the expiry.
    const link = await signingCall(ctx, benToken, '');
    expect(link.status).toBe(410);
    expect(link.body.detail).toMatch(/expired/);
    expect(
      smtp.messages.filter((m) => to(m).includes(ann) && /expired/.test(m.subject ?? '')),
    ).toHaveLength(0);
  });

  it('takes the tenant default, moves and removes a deadline in process', async () => {
    const settings = await api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
      expiryDays: 7,
    });
    expect(settings.status).toBe(200);
    expect(settings.body.settings.expiryDays).toBe(7);
    const cid = `cid.expiry.${engine}@example.com`;
    const doc = await create([{ email: cid, name: 'Cid Example' }]);
    expect(doc.expiresAt).toBeNull();
    const sentAt = Date.now();
    expect((await send(doc.id)).status).toBe(200);
    const sent = await get(doc.id);
    const days = (Date.parse(sent.expiresAt) - sentAt) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);

    // Moved closer while in process: it expires at the new time.
    const moved = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${doc.id}`, {
      expiresAt: inSeconds(2),
    });
    expect(moved.status).toBe(200);
    await waitForStatus(ctx, owner.apiKey, doc.id, 'cancelled', 20_000);

    // Removed while in process: the job due at the old time finds nothing to do.
    const dan = `dan.expiry.${engine}@example.com`;
    const kept = await create([{ email: dan, name: 'Dan Example' }], { expiresAt: inSeconds(2) });
    expect((await send(kept.id)).status).toBe(200);
    const removed = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${kept.id}`, {
      expiresAt: null,
    });
    expect(removed.status).toBe(200);
    expect(removed.body.document.expiresAt).toBeNull();
    await new Promise((r) => setTimeout(r, 3500));
    await ctx.deps.jobs.idle();
    expect((await get(kept.id)).status).toBe('in_process');
    expect((await trail(kept.id)).map((e) => e.action)).not.toContain('expired');
    await api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
      expiryDays: null,
    });
  });

  it('closes links at the deadline even before the expiry job has run', async () => {
    const eve = `eve.expiry.${engine}@example.com`;
    const doc = await create([{ email: eve, name: 'Eve Example' }], { expiresAt: inSeconds(3600) });
    expect((await send(doc.id)).status).toBe(200);
    const token = await tokenFor(eve);
    expect((await signingCall(ctx, token, '')).status).toBe(200);
    // The deadline passes while its job waits (a process down at that moment).
    await ctx.db.kysely
      .updateTable('documents')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', doc.id)
      .execute();
    const late = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Eve Example' },
    });
    expect(late.status).toBe(410);
    expect(late.body.code).toBe('link_expired');
    expect((await get(doc.id)).status).toBe('in_process');
  });

  it('takes a deadline when creating from a template', async () => {
    const template = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template: { name: 'NDA', roles: [{ name: 'Client' }] },
      fields: signatureFields(1),
    });
    expect(template.status).toBe(201);
    const expiresAt = inSeconds(3600);
    const made = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/templates/${template.body.template.id}/documents`,
      {
        signees: [{ role: 'Client', email: `fay.expiry.${engine}@example.com`, name: 'Fay' }],
        expiresAt,
        send: true,
      },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.document).toMatchObject({ status: 'in_process', expiresAt });
  });

  it('refuses bad deadlines with 422, a change after the end with 409, and changes nothing', async () => {
    const before = await ctx.db.kysely
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const signees = [{ email: `gil.expiry.${engine}@example.com`, name: 'Gil' }];
    for (const [value, message] of [
      ['tomorrow', /ISO 8601/],
      ['2020-01-01T00:00:00Z', /must be in the future/],
    ] as const) {
      const res = await quickCreate(ctx, owner.apiKey, {
        tenantId,
        signees,
        extra: { expiresAt: value },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        { path: 'expiresAt', message: expect.stringMatching(message) },
      ]);
    }
    const after = await ctx.db.kysely
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    // A draft whose deadline passed before it was sent: the send is refused, nothing taken.
    const doc = await create(signees, { expiresAt: inSeconds(3600) });
    await ctx.db.kysely
      .updateTable('documents')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', doc.id)
      .execute();
    const credits = async () =>
      (await api(ctx, owner.apiKey, 'GET', `/api/tenants/${tenantId}/credits`)).body.balance;
    const balance = await credits();
    const late = await send(doc.id);
    expect(late.status).toBe(422);
    expect(late.body.errors).toEqual([{ path: 'expiresAt', message: 'must be in the future' }]);
    expect((await get(doc.id)).status).toBe('draft');
    expect(await credits()).toBe(balance);

    const past = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${doc.id}`, {
      expiresAt: '2020-01-01T00:00:00Z',
    });
    expect(past.status).toBe(422);
    expect(past.body.errors[0].path).toBe('body.expiresAt');

    const cancelled = await create(signees);
    await send(cancelled.id);
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${cancelled.id}/cancel`);
    const closed = await api(ctx, owner.apiKey, 'PATCH', `/api/documents/${cancelled.id}`, {
      expiresAt: inSeconds(3600),
    });
    expect(closed.status).toBe(409);
    expect((await get(cancelled.id)).expiresAt).toBeNull();

    for (const expiryDays of [0, 3651, 1.5, '7']) {
      const res = await api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
        expiryDays,
      });
      expect(res.status).toBe(422);
    }
  });
});
