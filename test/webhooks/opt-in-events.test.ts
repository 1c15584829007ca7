import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/src/verify-webhook.js';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingTokenFor } from '../../server/src/modules/documents/sending.service.js';
import { signingCall } from '../helpers/signing.js';
import { useMailingContext } from '../helpers/smtp.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';
import { addWebhook, WEBHOOK_TEST_ENV } from './fixtures.js';
import { startReceiver, type Received, type Receiver } from './receiver.js';

type Envelope = {
  id: string;
  type: string;
  occurredAt: string;
  tenantId: string;
  data: Record<string, unknown>;
};

const OPT_IN = ['signee.viewed', 'signee.reminded', 'email.failed', 'bulk_send.completed'];
let seq = 0;
const unique = (local: string) => `${local}-${Date.now()}-${++seq}@example.com`;

describe.each(ENGINES)('opt-in events (webhookEvents) on %s', (engine) => {
  const fixture = useMailingContext(engine, {
    listen: true,
    env: (smtpUrl) => ({ SMTP_URL: smtpUrl, ...WEBHOOK_TEST_ENV }),
  });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  // A tenant with one webhook at `path`, opted into `events`.
  async function tenantWithWebhook(path: string, events: string[], senderEmail?: string) {
    const { ctx } = fixture;
    const apiKey = (await createUser(ctx, { email: senderEmail })).apiKey;
    const tenantId = (await createTenant(ctx, apiKey)).id;
    const hook = await addWebhook(ctx, apiKey, tenantId, receiver.url(path));
    if (events.length > 0) {
      const res = await api(ctx, apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
        webhookEvents: events,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    return { apiKey, tenantId, hook, path };
  }
  type Tenant = Awaited<ReturnType<typeof tenantWithWebhook>>;

  const envelopes = (path: string) =>
    receiver.received(path).map((r) => ({ r, e: JSON.parse(r.body.toString()) as Envelope }));

  // Waits until `path` has received an event matching `match`; returns it and its request.
  async function waitForEvent(
    path: string,
    match: (e: Envelope) => boolean,
    timeoutMs = 10_000,
  ): Promise<{ r: Received; e: Envelope }> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = envelopes(path).find(({ e }) => match(e));
      if (found) return found;
      if (Date.now() > end) throw new Error(`${path}: no matching event`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  // The seed's headers and signature, as every event carries them.
  function expectSigned(r: Received, e: Envelope, t: Tenant) {
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-service-webhook-event']).toBe(e.type);
    expect(r.headers['x-service-webhook-id']).toBe(e.id);
    expect(r.headers['x-service-webhook-attempt']).toBe('1');
    // The SDK's verifier checks the signature and knows the opt-in types.
    const verified = verifyWebhook({
      rawBody: r.body,
      signatureHeader: r.headers['x-service-signature'] as string,
      secret: t.hook.secret,
    });
    expect(verified).toEqual({ ok: true, event: e });
    expect(Object.keys(e)).toEqual(['id', 'type', 'occurredAt', 'tenantId', 'data']);
    expect(e.tenantId).toBe(t.tenantId);
  }

  // A sent document with one signee; its id, the signee's id and signing token.
  async function sentDocument(t: Tenant, email = unique('signee')) {
    const { ctx } = fixture;
    const doc = await quickCreate(ctx, t.apiKey, {
      tenantId: t.tenantId,
      signees: [{ email, name: 'Sam Signee' }],
    });
    expect(doc.status).toBe(201);
    const documentId = doc.body.document.id as string;
    const sent = await api(ctx, t.apiKey, 'POST', `/api/documents/${documentId}/send-for-signing`);
    expect(sent.status).toBe(200);
    return { documentId, signeeId: doc.body.signees[0].id as string, email, sent: sent.body };
  }

  // A seed event after everything the test did: cancelling makes document.status_changed.
  async function barrier(t: Tenant, documentId: string) {
    const res = await api(fixture.ctx, t.apiKey, 'POST', `/api/documents/${documentId}/cancel`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await waitForEvent(
      t.path,
      (e) =>
        e.type === 'document.status_changed' &&
        e.data.documentId === documentId &&
        e.data.newStatus === 'cancelled',
    );
  }

  // Waits until `n` e-mails to `address` were refused for good (their rows settled `refused`).
  async function failedEmails(address: string, n: number) {
    const end = Date.now() + 10_000;
    for (;;) {
      const rows = await fixture.ctx.db.kysely
        .selectFrom('emails')
        .select('id')
        .where('to_address', '=', address)
        .where('status', '=', 'refused')
        .execute();
      if (rows.length >= n) return;
      if (Date.now() > end) throw new Error(`${address}: ${rows.length} of ${n} e-mails failed`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const feed = async (t: Tenant) =>
    (await api(fixture.ctx, t.apiKey, 'GET', `/api/events?tenantId=${t.tenantId}`)).body
      .events as Envelope[];

  it('webhookEvents: [] by default, stored without repeats, unknown names 422 by index', async () => {
    const { ctx } = fixture;
    const t = await tenantWithWebhook('/settings', []);
    const url = `/api/tenants/${t.tenantId}/settings`;
    const before = await api(ctx, t.apiKey, 'GET', url);
    expect(before.body.settings).toMatchObject({ webhookEvents: [], signeeEvents: false });

    const set = await api(ctx, t.apiKey, 'PATCH', url, {
      webhookEvents: ['email.failed', 'signee.viewed', 'email.failed'],
    });
    expect(set.status).toBe(200);
    expect(set.body.settings.webhookEvents).toEqual(['signee.viewed', 'email.failed']);

    const bad = await api(ctx, t.apiKey, 'PATCH', url, {
      webhookEvents: ['signee.reminded', 'signee.opened'],
      emailLanguage: 'de',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.webhookEvents.1']);
    const notArray = await api(ctx, t.apiKey, 'PATCH', url, { webhookEvents: 'signee.viewed' });
    expect(notArray.status).toBe(422);
    const after = await api(ctx, t.apiKey, 'GET', url);
    expect(after.body.settings).toEqual({
      ...before.body.settings,
      webhookEvents: set.body.settings.webhookEvents,
    });
    expect(after.body.settings.emailLanguage).toBe(before.body.settings.emailLanguage);
  });

  it('signee.viewed once for two openings (page and JSON); signee.reminded per reminder', async () => {
    const { ctx } = fixture;
    const t = await tenantWithWebhook('/viewed', ['signee.viewed', 'signee.reminded']);
    const doc = await sentDocument(t);
    const token = signingTokenFor(ctx.config.secretKey, doc.signeeId);

    // The page and its JSON at once (as a browser opening the link does), then both again.
    const [page, json] = await Promise.all([
      fetch(`${ctx.baseUrl}/sign/${token}`),
      signingCall(ctx, token, ''),
    ]);
    expect([page.status, json.status]).toEqual([200, 200]);
    expect((await fetch(`${ctx.baseUrl}/sign/${token}`)).status).toBe(200);
    expect((await signingCall(ctx, token, '')).status).toBe(200);

    const viewed = await waitForEvent('/viewed', (e) => e.type === 'signee.viewed');
    expectSigned(viewed.r, viewed.e, t);
    expect(viewed.e.data).toEqual({
      documentId: doc.documentId,
      signeeId: doc.signeeId,
      viewedAt: viewed.e.occurredAt,
    });

    const reminded = await api(ctx, t.apiKey, 'POST', `/api/documents/${doc.documentId}/remind`);
    expect(reminded.status, JSON.stringify(reminded.body)).toBe(200);
    const r = await waitForEvent('/viewed', (e) => e.type === 'signee.reminded');
    expectSigned(r.r, r.e, t);
    expect(r.e.data).toEqual({
      documentId: doc.documentId,
      signeeId: doc.signeeId,
      remindedAt: r.e.occurredAt,
    });

    await barrier(t, doc.documentId);
    const types = envelopes('/viewed').map(({ e }) => e.type);
    expect(types.filter((x) => x === 'signee.viewed')).toHaveLength(1);
    expect(types.filter((x) => x === 'signee.reminded')).toHaveLength(1);
    // The trail says "opened" once too; the feed shows the events as delivered.
    const trail = await api(ctx, t.apiKey, 'GET', `/api/documents/${doc.documentId}/audit-trail`);
    const actions = trail.body.auditTrail.map((e: { action: string }) => e.action);
    expect(actions.filter((a: string) => a === 'opened')).toHaveLength(1);
    const events = await feed(t);
    expect(events.find((e) => e.type === 'signee.viewed')).toEqual(viewed.e);
    expect(events.find((e) => e.type === 'signee.reminded')).toEqual(r.e);
  });

  it('email.failed on a permanent 550, with data.email, kind and error; no retry', async () => {
    const { ctx, smtp } = fixture;
    const t = await tenantWithWebhook('/bounce', ['email.failed']);
    smtp.rejectRecipients(/^bounce-/);
    try {
      const doc = await sentDocument(t, unique('bounce-invite'));
      expect(doc.sent.deliveries[0]).toMatchObject({ email: doc.email, status: 'failed' });
      const failed = await waitForEvent('/bounce', (e) => e.type === 'email.failed');
      expectSigned(failed.r, failed.e, t);
      expect(failed.e.data).toMatchObject({
        documentId: doc.documentId,
        signeeId: doc.signeeId,
        email: doc.email,
        kind: 'invitation',
        failedAt: failed.e.occurredAt,
      });
      expect(failed.e.data.error).toMatch(/550/);
      // Refused for good: the outbox row is settled refused and nothing is left to retry it.
      const row = await ctx.db.kysely
        .selectFrom('emails')
        .select(['id', 'status'])
        .where('to_address', '=', doc.email)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('refused');
      const jobs = await ctx.db.kysely
        .selectFrom('jobs')
        .select('id')
        .where('id', '=', row.id)
        .execute();
      expect(jobs).toEqual([]);
      // The same settlement wrote the mail audit's entry, with the same error.
      const trail = await api(ctx, t.apiKey, 'GET', `/api/documents/${doc.documentId}/audit-trail`);
      const entry = trail.body.auditTrail.find(
        (e: { action: string }) => e.action === 'e-mail failed',
      );
      expect(entry.details).toEqual({
        to: doc.email,
        kind: 'invitation',
        error: failed.e.data.error,
      });

      // A reminder refused the same way is kind "reminder".
      const reminded = await api(ctx, t.apiKey, 'POST', `/api/documents/${doc.documentId}/remind`);
      expect(reminded.status).toBe(200);
      const again = await waitForEvent(
        '/bounce',
        (e) => e.type === 'email.failed' && e.data.kind === 'reminder',
      );
      expect(again.e.data).toMatchObject({ email: doc.email, signeeId: doc.signeeId });
      // Cancelling e-mails the signee a notice, refused too (by the mail job this time).
      await barrier(t, doc.documentId);
      const notice = await waitForEvent(
        '/bounce',
        (e) => e.type === 'email.failed' && e.data.kind === 'cancelled',
      );
      expect(notice.e.data).toMatchObject({
        documentId: doc.documentId,
        email: doc.email,
        signeeId: doc.signeeId,
      });
      await failedEmails(doc.email, 3);
      // A later seed event as the barrier: still one email.failed per e-mail.
      const later = await sentDocument(t);
      await barrier(t, later.documentId);
      const kinds = envelopes('/bounce')
        .filter(({ e }) => e.type === 'email.failed')
        .map(({ e }) => e.data.kind);
      expect(kinds.sort()).toEqual(['cancelled', 'invitation', 'reminder']);
    } finally {
      smtp.rejectRecipients(null);
    }
  });

  it("email.failed of kind notice for an e-mail not to a signee (the sender's decline notice)", async () => {
    const { ctx, smtp } = fixture;
    const sender = unique('sender-bounce');
    const t = await tenantWithWebhook('/notice', ['email.failed'], sender);
    smtp.rejectRecipients(/^sender-bounce-/);
    try {
      const doc = await sentDocument(t);
      const token = signingTokenFor(ctx.config.secretKey, doc.signeeId);
      const declined = await signingCall(ctx, token, 'decline', { reason: 'Not mine.' });
      expect(declined.status).toBe(200);
      // The outbox's row to the sender has no document, signee or kind: reported as a notice.
      const failed = await waitForEvent('/notice', (e) => e.type === 'email.failed');
      expectSigned(failed.r, failed.e, t);
      expect(failed.e.data).toMatchObject({
        documentId: null,
        signeeId: null,
        email: sender,
        kind: 'notice',
      });
      expect(failed.e.data.error).toMatch(/550/);
      await failedEmails(sender, 1);
    } finally {
      smtp.rejectRecipients(null);
    }
  });

  it('nothing opt-in reaches a tenant that did not opt in, nor its feed', async () => {
    const { ctx, smtp } = fixture;
    // signeeEvents on: the seed's opt-in keeps working beside webhookEvents.
    const t = await tenantWithWebhook('/quiet', []);
    const on = await api(ctx, t.apiKey, 'PATCH', `/api/tenants/${t.tenantId}/settings`, {
      signeeEvents: true,
    });
    expect(on.body.settings).toMatchObject({ signeeEvents: true, webhookEvents: [] });
    smtp.rejectRecipients(/^quiet-bounce-/);
    try {
      const doc = await sentDocument(t, unique('quiet-bounce'));
      const token = signingTokenFor(ctx.config.secretKey, doc.signeeId);
      expect((await fetch(`${ctx.baseUrl}/sign/${token}`)).status).toBe(200);
      expect((await signingCall(ctx, token, '')).status).toBe(200);
      expect(
        (await api(ctx, t.apiKey, 'POST', `/api/documents/${doc.documentId}/remind`)).status,
      ).toBe(200);
      await barrier(t, doc.documentId);
      // Invitation, reminder and cancel notice all refused, none of them an event.
      await failedEmails(doc.email, 3);
    } finally {
      smtp.rejectRecipients(null);
    }
    const types = envelopes('/quiet').map(({ e }) => e.type);
    expect(types).toContain('document.status_changed');
    expect(types.filter((x) => OPT_IN.includes(x))).toEqual([]);
    expect((await feed(t)).filter((e) => OPT_IN.includes(e.type))).toEqual([]);
    const rows = await ctx.db.kysely
      .selectFrom('events')
      .select('type')
      .where('tenant_id', '=', t.tenantId)
      .where('type', 'in', OPT_IN as never[])
      .execute();
    expect(rows).toEqual([]);
  });

  it('signee.status_changed named in webhookEvents opts in as signeeEvents does', async () => {
    const { ctx } = fixture;
    const t = await tenantWithWebhook('/seed-named', ['signee.status_changed']);
    const settings = await api(ctx, t.apiKey, 'GET', `/api/tenants/${t.tenantId}/settings`);
    expect(settings.body.settings).toMatchObject({
      signeeEvents: false,
      webhookEvents: ['signee.status_changed'],
    });
    const doc = await sentDocument(t);
    const token = signingTokenFor(ctx.config.secretKey, doc.signeeId);
    const declined = await signingCall(ctx, token, 'decline', { reason: 'no' });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    const e = await waitForEvent(
      '/seed-named',
      (x) => x.type === 'signee.status_changed' && x.data.signeeId === doc.signeeId,
    );
    expect(e.e.data).toMatchObject({ oldStatus: 'pending', newStatus: 'declined' });
    // Not opted into signee.viewed: the decline's page view raised none.
    await waitForEvent(
      '/seed-named',
      (x) => x.type === 'document.status_changed' && x.data.newStatus === 'declined',
    );
    expect(envelopes('/seed-named').filter(({ e }) => OPT_IN.includes(e.type))).toEqual([]);
  });

  it('bulk_send.completed once, with the bulk send answer fields', async () => {
    const { ctx } = fixture;
    const t = await tenantWithWebhook('/bulk', ['bulk_send.completed']);
    const template = await createTemplate(ctx, t.apiKey, {
      tenantId: t.tenantId,
      template: { name: 'Lease', roles: [{ name: 'Client' }] },
      fields: signatureFields(1),
    });
    expect(template.status).toBe(201);
    const templateId = template.body.template.id as string;
    const posted = await api(ctx, t.apiKey, 'POST', `/api/templates/${templateId}/bulk-sends`, {
      rows: [
        { signees: [{ role: 'Client', email: unique('bulk'), name: 'One' }] },
        { signees: [{ role: 'Client', email: 'not-mail', name: 'Two' }] },
        { signees: [{ role: 'Client', email: unique('bulk'), name: 'Three' }] },
      ],
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(202);
    const id = posted.body.bulkSend.id as string;
    const done = await waitForEvent('/bulk', (e) => e.type === 'bulk_send.completed', 30_000);
    expectSigned(done.r, done.e, t);
    const answer = (await api(ctx, t.apiKey, 'GET', `/api/bulk-sends/${id}`)).body.bulkSend;
    expect(answer.status).toBe('completed');
    expect(done.e.data).toEqual({
      id,
      templateId,
      total: answer.total,
      created: answer.created,
      failed: answer.failed,
    });
    expect(done.e.data).toMatchObject({ total: 3, created: 2, failed: 1 });
    // A later document's event as the barrier: still one completion.
    const later = await sentDocument(t);
    await barrier(t, later.documentId);
    expect(envelopes('/bulk').filter(({ e }) => e.type === 'bulk_send.completed')).toHaveLength(1);
  });

  it('no bulk_send.completed for a tenant opted into other types only', async () => {
    const { ctx } = fixture;
    const t = await tenantWithWebhook('/bulk-quiet', ['signee.viewed', 'email.failed']);
    const template = await createTemplate(ctx, t.apiKey, {
      tenantId: t.tenantId,
      template: { name: 'Lease', roles: [{ name: 'Client' }] },
      fields: signatureFields(1),
    });
    const templateId = template.body.template.id as string;
    const posted = await api(ctx, t.apiKey, 'POST', `/api/templates/${templateId}/bulk-sends`, {
      rows: [{ signees: [{ role: 'Client', email: unique('bulk-quiet'), name: 'One' }] }],
    });
    expect(posted.status).toBe(202);
    const id = posted.body.bulkSend.id as string;
    const end = Date.now() + 30_000;
    while (
      (await api(ctx, t.apiKey, 'GET', `/api/bulk-sends/${id}`)).body.bulkSend.status !==
      'completed'
    ) {
      if (Date.now() > end) throw new Error('bulk send not completed');
      await new Promise((r) => setTimeout(r, 50));
    }
    const later = await sentDocument(t);
    await barrier(t, later.documentId);
    expect(envelopes('/bulk-quiet').filter(({ e }) => OPT_IN.includes(e.type))).toEqual([]);
    expect((await feed(t)).filter((e) => e.type === 'bulk_send.completed')).toEqual([]);
  });
});
