import { randomUUID } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../server/src/lib/ids.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingCall, waitForStatus } from '../helpers/signing.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';

type User = Awaited<ReturnType<typeof createUser>>;

const to = (m: ParsedMail) =>
  (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => v.address));

describe.each(ENGINES)('direct links on %s', (engine) => {
  let smtp: SmtpSink;
  let ctx: TestContext;
  let owner: User;
  let tenantId: string;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    ctx = await createTestContext(engine, { listen: true, env: { SMTP_URL: smtp.url } });
    owner = await createUser(ctx, { name: 'Olivia Owner' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  const unique = (label: string) =>
    `${label}.${engine}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const call = (method: string, path: string, body?: unknown) =>
    api(ctx, owner.apiKey, method, path, body);
  // The visitor: no key, no session, only the link.
  const visit = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${ctx.baseUrl}${path}`, {
      method,
      headers: {
        'user-agent': 'VisitorBrowser/1.0',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json =
      res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : null;
    return { status: res.status, headers: res.headers, body: json, text };
  };
  const use = (token: string, visitor: { name: string; email: string }) =>
    visit('POST', `/api/direct-links/${token}/documents`, visitor);
  const balance = async () =>
    (await call('GET', `/api/tenants/${tenantId}/credits`)).body.balance as number;
  const linkDocuments = (templateId: string) =>
    ctx.db.kysely
      .selectFrom('documents')
      .selectAll()
      .where('template_id', '=', templateId)
      .orderBy('created_at')
      .execute();

  /** A one-role template with a signature field, its direct link enabled. */
  async function linkedTemplate(name: string, signingMessage?: string) {
    const made = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template: { name, roles: [{ name: 'Customer' }], ...(signingMessage && { signingMessage }) },
      fields: signatureFields(1),
    });
    expect(made.status).toBe(201);
    const id = made.body.template.id as string;
    const enabled = await call('PATCH', `/api/templates/${id}`, { directLink: { enabled: true } });
    expect(enabled.status).toBe(200);
    const url = enabled.body.template.directLink.url as string;
    expect(url).toMatch(/^http:\/\/localhost:3000\/t\/dl_[\w-]{43}$/);
    return { id, url, token: url.split('/t/')[1] };
  }

  it('lets a visitor sign: a direct_link document, one credit, sealed and e-mailed to them and the sender', async () => {
    const link = await linkedTemplate('Studio waiver', 'Please read before your first class.');

    const page = await visit('GET', `/t/${link.token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).toContain('<div id="root">');

    const view = await visit('GET', `/api/direct-links/${link.token}`);
    expect(view.status).toBe(200);
    expect(view.headers.get('cache-control')).toBe('no-store');
    expect(view.body).toEqual({
      template: {
        name: 'Studio waiver',
        signingMessage: 'Please read before your first class.',
        language: 'en',
        senderName: 'Olivia Owner',
      },
    });

    const before = await balance();
    const vera = { name: 'Vera Visitor', email: unique('vera') };
    const used = await use(link.token, vera);
    expect(used.status, used.text).toBe(201);
    expect(used.body).toEqual({
      signingUrl: expect.stringMatching(/^http:\/\/localhost:3000\/sign\/sg_[\w-]+$/),
    });
    expect(await balance()).toBe(before - 1);

    const [row] = await linkDocuments(link.id);
    expect(row).toMatchObject({ source: 'direct_link', status: 'in_process', user_id: owner.id });
    const got = await call('GET', `/api/documents/${row.id}`);
    expect(got.body.document).toMatchObject({
      name: 'Studio waiver',
      source: 'direct_link',
      templateId: link.id,
      status: 'in_process',
    });
    expect(got.body.signees).toMatchObject([{ email: vera.email, name: 'Vera Visitor' }]);
    const trail = (await call('GET', `/api/documents/${row.id}/audit-trail`)).body;
    const entries = trail.auditTrail as Array<{
      action: string;
      actor: string;
      details: Record<string, unknown> | null;
      userAgent: string | null;
    }>;
    expect(entries.map((e) => e.action)).toEqual(['created', 'sent', 'link issued']);
    expect(entries[0]).toMatchObject({
      actor: 'direct_link',
      userAgent: 'VisitorBrowser/1.0',
      details: expect.objectContaining({
        via: 'direct_link',
        templateId: link.id,
        emailSelfDeclared: true,
      }),
    });
    expect(entries[1].actor).toBe('direct_link');

    // The visitor signs on the ordinary signing page's API with the link they were given.
    const token = used.body.signingUrl.split('/sign/')[1];
    const signed = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Vera Visitor' },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const done = await waitForStatus(ctx, owner.apiKey, row.id, 'signed', 30_000);
    expect(done.document.hash).toMatch(/^[0-9a-f]{64}$/);
    for (const address of [vera.email, owner.email]) {
      const mail = await smtp.waitFor(
        (m) => to(m).includes(address) && /^Signed by everyone/.test(m.subject ?? ''),
        20_000,
      );
      expect(mail.subject).toBe('Signed by everyone: "Studio waiver"');
      expect(mail.attachments).toHaveLength(1);
    }
    // No invitation: the visitor was already on their way to the signing page.
    expect(
      smtp.messages.filter(
        (m) => to(m).includes(vera.email) && /^Signature requested/.test(m.subject ?? ''),
      ),
    ).toEqual([]);
  }, 90_000);

  it('refuses a fourth use by one e-mail address within the hour, creating nothing', async () => {
    const link = await linkedTemplate('Per-address');
    const email = unique('many');
    for (let i = 0; i < 3; i++) {
      expect((await use(link.token, { name: `Visitor ${i}`, email })).status).toBe(201);
    }
    const before = await balance();
    // The address in another case is the same address.
    const fourth = await use(link.token, { name: 'Visitor 3', email: email.toUpperCase() });
    expect(fourth.status).toBe(429);
    expect(fourth.body.code).toBe('rate_limited');
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await linkDocuments(link.id)).toHaveLength(3);
    expect(await balance()).toBe(before);
    // Another address is unaffected.
    expect((await use(link.token, { name: 'Other', email: unique('other') })).status).toBe(201);
  });

  it('counts a link’s uses in the database: 100 an hour, 1,000 a day', async () => {
    const link = await linkedTemplate('Per-link');
    expect((await use(link.token, { name: 'First', email: unique('first') })).status).toBe(201);
    const [first] = await linkDocuments(link.id);
    // Earlier uses, as rows: the limit reads the documents, whichever process made them.
    const clones = async (count: number, createdAt: string) => {
      const rows = Array.from({ length: count }, () => ({
        ...first,
        id: newId(),
        created_at: createdAt,
      }));
      for (let i = 0; i < rows.length; i += 100) {
        await ctx.db.kysely
          .insertInto('documents')
          .values(rows.slice(i, i + 100))
          .execute();
      }
    };
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
    await clones(99, minutesAgo(10));
    const hour = await use(link.token, { name: 'Late', email: unique('late') });
    expect(hour.status).toBe(429);
    expect(hour.body.code).toBe('rate_limited');
    // The hundredth newest use was 10 minutes ago (the first use is the newest).
    const hourWait = Number(hour.headers.get('retry-after'));
    expect(hourWait).toBeGreaterThan(49 * 60);
    expect(hourWait).toBeLessThanOrEqual(50 * 60);

    // Over an hour old, they count only for the day.
    await ctx.db.kysely
      .updateTable('documents')
      .set({ created_at: minutesAgo(120) })
      .where('template_id', '=', link.id)
      .execute();
    expect((await use(link.token, { name: 'Later', email: unique('later') })).status).toBe(201);
    await clones(899, minutesAgo(180));
    const day = await use(link.token, { name: 'Last', email: unique('last') });
    expect(day.status).toBe(429);
    expect(Number(day.headers.get('retry-after'))).toBeGreaterThan(20 * 3600);
    expect(await linkDocuments(link.id)).toHaveLength(1000);
  }, 60_000);

  it('answers 410 while disabled, and the same URL works once enabled again', async () => {
    const link = await linkedTemplate('On and off');
    const off = await call('PATCH', `/api/templates/${link.id}`, {
      directLink: { enabled: false },
    });
    expect(off.body.template.directLink).toEqual({ enabled: false, url: null });

    const view = await visit('GET', `/api/direct-links/${link.token}`);
    expect(view.status).toBe(410);
    expect(view.body).toMatchObject({ code: 'direct_link_disabled', status: 410, language: 'en' });
    const used = await use(link.token, { name: 'Too Late', email: unique('late') });
    expect(used.status).toBe(410);
    expect(used.body.code).toBe('direct_link_disabled');
    expect(await linkDocuments(link.id)).toEqual([]);
    // The page still loads, to say the link is disabled.
    expect((await visit('GET', `/t/${link.token}`)).status).toBe(200);

    const on = await call('PATCH', `/api/templates/${link.id}`, { directLink: { enabled: true } });
    expect(on.body.template.directLink).toEqual({ enabled: true, url: link.url });
    expect((await visit('GET', `/api/direct-links/${link.token}`)).status).toBe(200);
    expect((await use(link.token, { name: 'Back Again', email: unique('back') })).status).toBe(201);
    expect(await linkDocuments(link.id)).toHaveLength(1);
  });

  it('answers 404 for a token no link has, and for a deleted template’s', async () => {
    const link = await linkedTemplate('Soon gone');
    for (const token of [`dl_${'A'.repeat(43)}`, 'not-a-token', randomUUID()]) {
      expect((await visit('GET', `/api/direct-links/${token}`)).status).toBe(404);
      const used = await use(token, { name: 'Nobody', email: unique('nobody') });
      expect(used.status).toBe(404);
      expect(used.body.code).toBe('not_found');
    }
    expect((await call('DELETE', `/api/templates/${link.id}`)).status).toBe(204);
    expect((await visit('GET', `/api/direct-links/${link.token}`)).status).toBe(404);
  });

  it('answers 402 without the balance when credits are short, and creates nothing', async () => {
    const link = await linkedTemplate('Out of credits');
    const setBalance = (credit_balance: number) =>
      ctx.db.kysely
        .updateTable('tenants')
        .set({ credit_balance })
        .where('id', '=', tenantId)
        .execute();
    const restore = await balance();
    await setBalance(0);
    const email = unique('broke');
    try {
      const refused = await use(link.token, { name: 'Penny Less', email });
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({
        code: 'insufficient_credits',
        detail: 'This link cannot be used right now.',
      });
      expect(await linkDocuments(link.id)).toEqual([]);
      expect(await balance()).toBe(0);
    } finally {
      await setBalance(restore);
    }
    // The refused use took none of the address's three.
    for (let i = 0; i < 3; i++) {
      expect((await use(link.token, { name: 'Penny Less', email })).status).toBe(201);
    }
  });

  it('refuses an empty name, a malformed e-mail and unknown members with 422 at each input', async () => {
    const link = await linkedTemplate('Checked');
    const bad = await use(link.token, { name: '  ', email: 'not-an-address' });
    expect(bad.status).toBe(422);
    const paths = (bad.body.errors as Array<{ path: string }>).map((e) => e.path).sort();
    expect(paths).toEqual(['body.email', 'body.name']);
    const extra = await visit('POST', `/api/direct-links/${link.token}/documents`, {
      name: 'Eve',
      email: unique('eve'),
      role: 1,
    });
    expect(extra.status).toBe(422);
    expect(await linkDocuments(link.id)).toEqual([]);
  });
});
