import { describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingCall, waitForStatus } from '../helpers/signing.js';
import { useMailingContext } from '../helpers/smtp.js';

// GET /api/documents/summary and the listing filters each of its counts links to: documents
// in every state, one whose invitation bounced (a real SMTP server answering 550).
describe.each(ENGINES)('home counts and their listing filters on %s', (engine) => {
  const fixture = useMailingContext(engine, { listen: true });
  let n = 0;
  const address = (label: string) => `${label}-${engine}-${process.pid}-${n++}@example.com`;

  async function draft(apiKey: string, tenantId: string, name: string, email = address('s')) {
    const res = await quickCreate(fixture.ctx, apiKey, {
      tenantId,
      signees: [{ email, name: 'Sam Signee' }],
      extra: { name },
    });
    expect(res.status).toBe(201);
    return res.body.document.id as string;
  }
  async function send(apiKey: string, id: string) {
    const res = await api(fixture.ctx, apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    expect(res.status).toBe(200);
    return res.body;
  }
  async function sign(apiKey: string, id: string, email: string) {
    await send(apiKey, id);
    const mail = await fixture.smtp.waitFor(
      (m) => m.text?.includes('/sign/') === true && toOf(m) === email,
    );
    const token = /\/sign\/(sg_[A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1];
    const signed = await signingCall(fixture.ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Sam Signee' },
    });
    expect(signed.status).toBe(200);
    return waitForStatus(fixture.ctx, apiKey, id, 'signed', 30_000);
  }
  const toOf = (m: { to?: unknown }) =>
    (Array.isArray(m.to) ? m.to[0] : (m.to as { value: { address: string }[] } | undefined))
      ?.value[0]?.address;
  const summary = async (apiKey: string, tenantId: string, extra = '') =>
    api(fixture.ctx, apiKey, 'GET', `/api/documents/summary?tenantId=${tenantId}${extra}`);
  const listed = async (apiKey: string, tenantId: string, filter: string) => {
    const res = await api(
      fixture.ctx,
      apiKey,
      'GET',
      `/api/documents?tenantId=${tenantId}&limit=100&${filter}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.documents as { id: string }[]).map((d) => d.id).sort();
  };

  it('counts each state in one call, and each count lists exactly its documents', async () => {
    const { ctx, smtp } = fixture;
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey, 'Counted')).id;
    const empty = await summary(owner.apiKey, tenantId);
    expect(empty.status).toBe(200);
    expect(empty.body.summary).toMatchObject({
      inProcess: 0,
      draft: 0,
      completed: 0,
      emailFailed: 0,
    });

    const drafts = [
      await draft(owner.apiKey, tenantId, 'D1'),
      await draft(owner.apiKey, tenantId, 'D2'),
    ];
    const waiting = await draft(owner.apiKey, tenantId, 'Waiting');
    await send(owner.apiKey, waiting);
    // An invitation the mail server refuses for good (550): in process, and an e-mail failed.
    const bounceTo = address('bounce');
    smtp.rejectRecipients(/^bounce-/);
    let bounced: string;
    let cancelledBounce: string;
    try {
      bounced = await draft(owner.apiKey, tenantId, 'Bounced', bounceTo);
      expect((await send(owner.apiKey, bounced)).deliveries[0].status).toBe('failed');
      // A bounced document that was cancelled since needs nobody's attention.
      cancelledBounce = await draft(owner.apiKey, tenantId, 'Cancelled', address('bounce'));
      await send(owner.apiKey, cancelledBounce);
    } finally {
      smtp.rejectRecipients(null);
    }
    expect(
      (await api(ctx, owner.apiKey, 'POST', `/api/documents/${cancelledBounce}/cancel`, {})).status,
    ).toBe(200);
    const signedTo = address('signer');
    const recent = await draft(owner.apiKey, tenantId, 'Recent', signedTo);
    const done = await sign(owner.apiKey, recent, signedTo);
    expect(done.document.completedAt).toEqual(expect.any(String));
    const oldTo = address('signer');
    const old = await draft(owner.apiKey, tenantId, 'Old', oldTo);
    await sign(owner.apiKey, old, oldTo);
    // Completed 8 days ago: outside the last 7 days.
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600_000).toISOString();
    await ctx.db.kysely
      .updateTable('documents')
      .set({ completed_at: eightDaysAgo })
      .where('id', '=', old)
      .execute();

    const res = await summary(owner.apiKey, tenantId);
    expect(res.status).toBe(200);
    const s = res.body.summary;
    expect(s).toMatchObject({ inProcess: 2, draft: 2, completed: 1, emailFailed: 1 });
    const since = Date.parse(s.completedSince);
    expect(Math.abs(since - (Date.now() - 7 * 24 * 3600_000))).toBeLessThan(60_000);

    // Each count's listing: the same documents.
    expect(await listed(owner.apiKey, tenantId, 'status=in_process')).toEqual(
      [waiting, bounced!].sort(),
    );
    expect(await listed(owner.apiKey, tenantId, 'status=draft')).toEqual([...drafts].sort());
    expect(
      await listed(
        owner.apiKey,
        tenantId,
        `completedSince=${encodeURIComponent(s.completedSince)}`,
      ),
    ).toEqual([recent]);
    expect(await listed(owner.apiKey, tenantId, 'emailFailed=true')).toEqual([bounced!]);
    // An earlier start takes the older one in, in the count and in the listing alike.
    const nineDays = new Date(Date.now() - 9 * 24 * 3600_000).toISOString();
    const wider = await summary(owner.apiKey, tenantId, `&completedSince=${nineDays}`);
    expect(wider.body.summary.completed).toBe(2);
    expect(await listed(owner.apiKey, tenantId, `completedSince=${nineDays}`)).toEqual(
      [recent, old].sort(),
    );
    // A time with an offset means the same instant.
    const offset = nineDays.replace('Z', '+00:00');
    expect(
      await listed(owner.apiKey, tenantId, `completedSince=${encodeURIComponent(offset)}`),
    ).toHaveLength(2);

    // A reminder that goes out after the bounce (the address fixed at the receiving end) clears it.
    await ctx.db.kysely
      .updateTable('documents')
      .set({ reminder_cooldown_until: null })
      .where('id', '=', bounced!)
      .execute();
    const reminded = await api(ctx, owner.apiKey, 'POST', `/api/documents/${bounced!}/remind`);
    expect(reminded.status).toBe(200);
    expect(reminded.body.deliveries[0].status).toBe('sent');
    expect((await summary(owner.apiKey, tenantId)).body.summary.emailFailed).toBe(0);
    expect(await listed(owner.apiKey, tenantId, 'emailFailed=true')).toEqual([]);
  });

  it('answers members only, and refuses bad filters with 422', async () => {
    const { ctx } = fixture;
    const owner = await createUser(ctx);
    const stranger = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey, 'Private')).id;
    expect((await summary(stranger.apiKey, tenantId)).status).toBe(404);
    const bad = await summary(owner.apiKey, tenantId, '&completedSince=last-week');
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toMatch(/completedSince/);
    const badList = await api(
      ctx,
      owner.apiKey,
      'GET',
      `/api/documents?tenantId=${tenantId}&emailFailed=yes`,
    );
    expect(badList.status).toBe(422);
    expect(badList.body.errors[0].path).toMatch(/emailFailed/);
    expect((await api(ctx, owner.apiKey, 'GET', '/api/documents/summary')).status).toBe(422);
  });
});
