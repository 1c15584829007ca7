import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';

type User = Awaited<ReturnType<typeof createUser>>;

describe.each(ENGINES)('send-for-signing on %s', (engine) => {
  let ctx: TestContext;
  let smtp: SmtpSink;
  let owner: User;
  let tenantId: string;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    ctx = await createTestContext(engine, { listen: true, env: { SMTP_URL: smtp.url } });
    owner = await createUser(ctx, { name: 'Olivia Owner' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  const credits = async (t = tenantId) =>
    (await api(ctx, owner.apiKey, 'GET', `/api/tenants/${t}/credits`)).body.balance as number;
  const events = (documentId: string) =>
    ctx.db.kysely
      .selectFrom('events')
      .selectAll()
      .where('document_id', '=', documentId)
      .orderBy('occurred_at')
      .execute();
  const unique = (label: string) =>
    `${label}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;

  it('consumes credits, moves to in_process, e-mails invitations and records the event', async () => {
    const a = unique('alice');
    const b = unique('bob');
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [
        { email: a, name: 'Alice' },
        { email: b, name: 'Bob' },
      ],
      extra: { name: 'Service Agreement', signingMessage: 'Looking forward to working with you.' },
    });
    const id = created.body.document.id;
    const before = await credits();
    const res = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    expect(res.status).toBe(200);
    expect(res.body.document.status).toBe('in_process');
    expect(res.body.document.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.deliveries).toEqual([
      { signeeId: res.body.signees[0].id, email: a, status: 'sent', error: null },
      { signeeId: res.body.signees[1].id, email: b, status: 'sent', error: null },
    ]);
    expect(await credits()).toBe(before - 2);

    const mail = await smtp.waitFor((m) => (m.to as { text: string }).text === a);
    expect(mail.subject).toBe('Signature requested: "Service Agreement"');
    expect(mail.text).toContain('Sent by: "Olivia Owner"');
    expect(mail.text).toContain('Looking forward to working with you.');
    const link = /http:\/\/localhost:3000\/sign\/(sg_[A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    expect(link).not.toBeNull();
    expect(mail.html).toContain(link![0]);
    expect(mail.html).toContain('Looking forward to working with you.');
    await smtp.waitFor((m) => (m.to as { text: string }).text === b);

    const evs = await events(id);
    expect(evs.map((e) => [e.type, e.old_status, e.new_status])).toEqual([
      ['document.status_changed', 'draft', 'in_process'],
    ]);
    const envelope = JSON.parse(evs[0].payload);
    expect(envelope).toEqual({
      id: evs[0].id,
      type: 'document.status_changed',
      occurredAt: envelope.occurredAt,
      tenantId,
      data: {
        documentId: id,
        oldStatus: 'draft',
        newStatus: 'in_process',
        changedAt: envelope.occurredAt,
        externalId: null,
        metadata: null,
      },
    });
    const trail = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`);
    expect(trail.body.auditTrail.map((e: { action: string }) => e.action)).toEqual([
      'created',
      'sent',
      'e-mailed',
      'e-mailed',
    ]);
    for (const entry of trail.body.auditTrail) {
      expect(entry.createdAt).toMatch(/Z$/);
    }
    expect(trail.body.auditTrail[1].ip).toBe('127.0.0.1');

    const again = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_status');
    expect(await credits()).toBe(before - 2);
  });

  it('writes invitations in each of the five languages', async () => {
    const expected: Record<string, [string, string]> = {
      en: ['Signature requested', 'Review and sign'],
      de: ['Unterschrift erbeten', 'Prüfen und unterschreiben'],
      fr: ['Signature demandée', 'Consulter et signer'],
      es: ['Firma solicitada', 'Revisar y firmar'],
      nl: ['Handtekening gevraagd', 'Bekijken en ondertekenen'],
    };
    for (const [language, [subjectPart, button]] of Object.entries(expected)) {
      const patch = await api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
        emailLanguage: language,
      });
      expect(patch.status).toBe(200);
      const to = unique(language);
      const doc = await quickCreate(ctx, owner.apiKey, {
        tenantId,
        signees: [{ email: to, name: 'Zoë Ünal' }],
        extra: { name: `Vertrag ${language}`, signingMessage: `Nachricht ${language}` },
      });
      expect(doc.body.document.emailLanguage).toBe(language);
      await api(
        ctx,
        owner.apiKey,
        'POST',
        `/api/documents/${doc.body.document.id}/send-for-signing`,
      );
      const mail = await smtp.waitFor((m) => (m.to as { text: string }).text === to);
      expect(mail.subject).toContain(subjectPart);
      expect(mail.subject).toContain(`Vertrag ${language}`);
      expect(mail.text).toContain(button);
      expect(mail.text).toContain('Zoë Ünal');
      expect(mail.text).toContain(`Nachricht ${language}`);
      expect(mail.html).toContain(`lang="${language}"`);
      expect(mail.html).toContain('/sign/sg_');
    }
    await api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
      emailLanguage: 'en',
    });
  });

  it('invites by signing order and reports the rest as scheduled', async () => {
    const [first, second, third] = [unique('first'), unique('second'), unique('third')];
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [
        { email: third, name: 'Third', signingOrder: 3 },
        { email: first, name: 'First', signingOrder: 1 },
        { email: second, name: 'Second', signingOrder: 2 },
      ],
      extra: { signingOrderEnabled: 'true' },
    });
    const res = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${doc.body.document.id}/send-for-signing`,
    );
    expect(res.body.deliveries.map((d: { status: string }) => d.status)).toEqual([
      'scheduled',
      'sent',
      'scheduled',
    ]);
    await smtp.waitFor((m) => (m.to as { text: string }).text === first);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      smtp.messages.some((m) => [second, third].includes((m.to as { text: string }).text)),
    ).toBe(false);
  });

  it('reports a refused recipient as failed with the transport reason', async () => {
    const bad = unique('refused');
    const good = unique('accepted');
    smtp.rejectRecipients(/^refused/);
    try {
      const doc = await quickCreate(ctx, owner.apiKey, {
        tenantId,
        signees: [
          { email: bad, name: 'Refused' },
          { email: good, name: 'Accepted' },
        ],
      });
      const res = await api(
        ctx,
        owner.apiKey,
        'POST',
        `/api/documents/${doc.body.document.id}/send-for-signing`,
      );
      expect(res.status).toBe(200);
      expect(res.body.document.status).toBe('in_process');
      expect(res.body.deliveries[0]).toMatchObject({ email: bad, status: 'failed' });
      expect(res.body.deliveries[0].error).toMatch(/550|Mailbox unavailable/);
      expect(res.body.deliveries[1]).toMatchObject({ email: good, status: 'sent', error: null });
      const trail = await api(
        ctx,
        owner.apiKey,
        'GET',
        `/api/documents/${doc.body.document.id}/audit-trail`,
      );
      expect(trail.body.auditTrail.map((e: { action: string }) => e.action)).toContain(
        'e-mail failed',
      );
    } finally {
      smtp.rejectRecipients(null);
    }
  });

  it('returns signing links instead of e-mails when the tenant delivers them itself', async () => {
    const t = (await createTenant(ctx, owner.apiKey, 'Links Inc')).id;
    await api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${t}/settings`, {
      invitationEmails: false,
    });
    const to = unique('linked');
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId: t,
      signees: [{ email: to, name: 'L' }],
    });
    const res = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${doc.body.document.id}/send-for-signing`,
    );
    expect(res.body.deliveries).toEqual([
      {
        signeeId: res.body.signees[0].id,
        email: to,
        status: 'link',
        error: null,
        signingUrl: expect.stringMatching(/^http:\/\/localhost:3000\/sign\/sg_[A-Za-z0-9_-]{40,}$/),
      },
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.messages.some((m) => (m.to as { text: string }).text === to)).toBe(false);
  });

  it('refuses with 402 when credits are short and changes nothing', async () => {
    const t = (await createTenant(ctx, owner.apiKey, 'Poor Ltd')).id;
    const balance = await credits(t);
    await ctx.db.kysely
      .updateTable('tenants')
      .set({ credit_balance: 1 })
      .where('id', '=', t)
      .execute();
    const doc = await quickCreate(ctx, owner.apiKey, { tenantId: t });
    const res = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${doc.body.document.id}/send-for-signing`,
    );
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('insufficient_credits');
    const after = await api(ctx, owner.apiKey, 'GET', `/api/documents/${doc.body.document.id}`);
    expect(after.body.document.status).toBe('draft');
    expect(await credits(t)).toBe(1);
    expect(await events(doc.body.document.id)).toEqual([]);
    expect(balance).toBe(1000);
  });

  it('lets exactly one of fifty concurrent sends win and consumes credits once', async () => {
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email: unique('race'), name: 'R' }],
    });
    const before = await credits();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        api(ctx, owner.apiKey, 'POST', `/api/documents/${doc.body.document.id}/send-for-signing`),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(await credits()).toBe(before - 1);
    expect(await events(doc.body.document.id)).toHaveLength(1);
  });

  it('replays send-for-signing for a repeated Idempotency-Key', async () => {
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email: unique('idem'), name: 'I' }],
    });
    const url = `/api/documents/${doc.body.document.id}/send-for-signing`;
    const first = await api(ctx, owner.apiKey, 'POST', url, undefined, {
      'idempotency-key': 'k-1',
    });
    const second = await api(ctx, owner.apiKey, 'POST', url, undefined, {
      'idempotency-key': 'k-1',
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.document.id).toBe(first.body.document.id);
    expect(second.body.deliveries).toEqual(first.body.deliveries);
  });

  it('reminds pending signees once per cooldown', async () => {
    const to = unique('remind');
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email: to, name: 'Rita' }],
    });
    const id = doc.body.document.id;
    const draft = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/remind`);
    expect(draft.status).toBe(409);
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const invitation = await smtp.waitFor((m) => (m.to as { text: string }).text === to);
    const res = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/remind`);
    expect(res.status).toBe(200);
    expect(res.body.deliveries).toEqual([
      { signeeId: res.body.signees[0].id, email: to, status: 'sent', error: null },
    ]);
    expect(Date.parse(res.body.document.reminderCooldownUntil)).toBeGreaterThan(
      Date.now() + 59 * 60_000,
    );
    const reminder = await smtp.waitFor(
      (m) => (m.to as { text: string }).text === to && m.subject!.startsWith('Reminder'),
    );
    const linkOf = (t?: string) => /\/sign\/(sg_[A-Za-z0-9_-]+)/.exec(t ?? '')?.[1];
    expect(linkOf(reminder.text)).toBe(linkOf(invitation.text));
    const tooSoon = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/remind`);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.code).toBe('reminder_cooldown');
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(3000);

    // Idempotency: a 429 is not stored (a retry with the key runs again, with its Retry-After);
    // a stored 4xx replays as problem+json; a key reused for another request is a 422 with errors.
    const keyed = (key: string, path = 'remind', documentId = id) =>
      api(ctx, owner.apiKey, 'POST', `/api/documents/${documentId}/${path}`, undefined, {
        'idempotency-key': key,
      });
    for (let i = 0; i < 2; i++) {
      const limited = await keyed('remind-key');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('idempotent-replayed')).toBeNull();
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3000);
    }
    const conflict = await keyed('send-again-key', 'send-for-signing');
    expect(conflict.status).toBe(409);
    const replayed = await keyed('send-again-key', 'send-for-signing');
    expect(replayed.status).toBe(409);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(replayed.body).toMatchObject({ code: 'invalid_status', status: 409 });
    const other = await quickCreate(ctx, owner.apiKey, { tenantId });
    const reused = await keyed('send-again-key', 'send-for-signing', other.body.document.id);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
    expect(reused.body.errors).toEqual([
      { path: 'headers.idempotency-key', message: expect.any(String) },
    ]);
  });

  it('cancels a document in process, and deletes only outside signing', async () => {
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email: unique('c'), name: 'C' }],
    });
    const id = doc.body.document.id;
    expect((await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/cancel`)).status).toBe(409);
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    expect((await api(ctx, owner.apiKey, 'DELETE', `/api/documents/${id}`)).status).toBe(409);
    // A JSON content type with nothing after it is no body, as these endpoints take.
    const cancelled = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${id}/cancel`,
      undefined,
      {
        'content-type': 'application/json',
      },
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.document.status).toBe('cancelled');
    expect((await events(id)).map((e) => e.new_status)).toEqual(['in_process', 'cancelled']);
    expect((await api(ctx, owner.apiKey, 'DELETE', `/api/documents/${id}`)).status).toBe(204);
    expect((await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).status).toBe(404);

    // Where a body is required, an empty one is a validation failure, not a server error.
    const noBody = await api(ctx, owner.apiKey, 'POST', '/api/tenants', undefined, {
      'content-type': 'application/json',
    });
    expect(noBody.status).toBe(422);
    expect(noBody.body.code).toBe('validation_failed');
    const badJson = await fetch(`${ctx.baseUrl}/api/tenants`, {
      method: 'POST',
      headers: { 'x-api-key': owner.apiKey, 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(badJson.status).toBe(400);
    expect((await badJson.json()).code).toBe('malformed_request');

    const draft = await quickCreate(ctx, owner.apiKey, { tenantId });
    const url = new URL(draft.body.document.downloadUrl);
    expect(
      (await api(ctx, owner.apiKey, 'DELETE', `/api/documents/${draft.body.document.id}`)).status,
    ).toBe(204);
    const gone = await fetch(`${ctx.baseUrl}${url.pathname}${url.search}`);
    expect(gone.status).toBe(404);
  });
});
