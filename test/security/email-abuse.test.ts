import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app.js';
import { openDatabase } from '../../server/src/db/database.js';
import type { Db } from '../../server/src/db/handle.js';
import type { App } from '../../server/src/http/types.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenantViaHttp, createUser, uniqueEmail } from '../helpers/factories.js';
import { deleteStaleRecipientSends } from '../../server/src/modules/mail/mail.repo.js';
import { productionEnv, startSmtpSink, useMailingContext, type SmtpSink } from '../helpers/smtp.js';

// Issue 45, part 5: the red team's e-mail attacks, replayed through HTTP and counted at a
// real SMTP listener.
const ATTACK =
  'URGENT: your account is locked, call +1 555 0100 or log in at https://evil.example/login or www.evil.example now';

const toOf = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.text ?? '';
const retryAfterOf = (res: { headers: Record<string, unknown> }) =>
  Number(res.headers['retry-after']);

/**
 * The quoted values of an e-mail, and its text with the service's own links taken out: what
 * is left must carry no URL nor anything a mail client would make one of.
 */
function inspect(mail: ParsedMail) {
  const own = /http:\/\/localhost:3000\/[^\s"'<>]*/g;
  const text = (mail.text ?? '').replace(own, '');
  const html = (typeof mail.html === 'string' ? mail.html : '').replace(own, '');
  const quoted = [...text.matchAll(/[“"„«]\s?([^”"“»]*?)\s?[”"“»]/g)].map((m) => m[1]);
  return { text, html, quoted, subject: mail.subject ?? '' };
}

function expectInert(mail: ParsedMail, label: string) {
  const { text, html, subject } = inspect(mail);
  for (const part of [text, html, subject]) {
    expect(part, label).not.toMatch(/https?:\/\/|www\.|evil\.example|\/\/evil/i);
  }
}

describe.each(ENGINES)('e-mail abuse on %s', (engine) => {
  const service = useMailingContext(engine, { listen: true });

  const arrivedTo = (address: string) => service.smtp.messages.filter((m) => toOf(m) === address);
  async function settle(address: string, expected: number) {
    const end = Date.now() + 15_000;
    while (arrivedTo(address).length < expected && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
    }
    // Anything beyond what is expected would have come by now (the job runner polls each second).
    await new Promise((r) => setTimeout(r, 1500));
    return arrivedTo(address);
  }
  const signup = (email: string, remoteAddress: string, name = ATTACK) =>
    service.ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: 'a long enough password', name },
      remoteAddress,
    });

  it('lets 30 tenants × 5 invitations put only 3 e-mails in one mailbox', async () => {
    const attacker = await createUser(service.ctx, { name: ATTACK });
    const tenants = await Promise.all(
      Array.from({ length: 30 }, () => createTenantViaHttp(service.ctx, attacker.apiKey, ATTACK)),
    );
    const victim = uniqueEmail('victim');
    const answers = (
      await Promise.all(
        tenants.map(async (tenant) => {
          const out = [];
          for (let i = 0; i < 5; i++) {
            out.push(
              await service.ctx.app.inject({
                method: 'POST',
                url: `/api/tenants/${tenant.id}/members`,
                headers: { 'x-api-key': attacker.apiKey },
                payload: { email: victim, role: 'member' },
              }),
            );
          }
          return out;
        }),
      )
    ).flat();
    const accepted = answers.filter((a) => a.statusCode === 202);
    expect(accepted).toHaveLength(3);
    for (const refused of answers.filter((a) => a.statusCode !== 202)) {
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.json().code).toBe('rate_limited');
      expect(retryAfterOf(refused)).toBeGreaterThan(0);
      expect(retryAfterOf(refused)).toBeLessThanOrEqual(3600);
    }
    // Refused means unchanged: three invitations and three e-mails exist for the address.
    const rows = await service.ctx.db.kysely
      .selectFrom('member_invitations')
      .select('id')
      .where('email', '=', victim)
      .execute();
    expect(rows).toHaveLength(3);
    const mails = await settle(victim, 3);
    expect(mails).toHaveLength(3);

    // The tenant's and the inviter's names arrive as quoted data, bounded, with no URL.
    const mail = mails[0];
    expect(mail.subject).toBe('Invitation to join a team on Signet');
    expectInert(mail, 'member invitation');
    const { quoted, text } = inspect(mail);
    expect(quoted.filter((q) => q.startsWith('URGENT: your account is locked'))).toHaveLength(2);
    for (const q of quoted) expect(Array.from(q).length).toBeLessThanOrEqual(60);
    expect(text).not.toMatch(/^URGENT/m);
    expect(text).toContain('Team name: “URGENT: your account is locked, call +1 555 0100');
    expect(mail.text).toMatch(/http:\/\/localhost:3000\/invitations\/iv_/);

    // Another address is not held back by the first one's budget.
    const other = uniqueEmail('other');
    const res = await service.ctx.app.inject({
      method: 'POST',
      url: `/api/tenants/${tenants[0].id}/members`,
      headers: { 'x-api-key': attacker.apiKey },
      payload: { email: other, role: 'member' },
    });
    expect(res.statusCode).toBe(202);
  });

  it('queues 5 of 20 sign-ups from one address at once, 429 for the rest, per network too', async () => {
    const emails = Array.from({ length: 20 }, () => uniqueEmail('signup'));
    const started = Date.now();
    const answers = await Promise.all(emails.map((email) => signup(email, '203.0.113.10')));
    expect(Date.now() - started).toBeLessThan(10_000);
    const created = answers.filter((a) => a.statusCode === 201);
    expect(created).toHaveLength(5);
    for (const refused of answers.filter((a) => a.statusCode !== 201)) {
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('rate_limited');
      expect(retryAfterOf(refused)).toBeGreaterThan(0);
    }
    const queued = await service.ctx.db.kysely
      .selectFrom('emails')
      .select('to_address')
      .where('to_address', 'in', emails)
      .execute();
    expect(queued).toHaveLength(5);
    const users = await service.ctx.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', 'in', emails)
      .execute();
    expect(users).toHaveLength(5);

    // The name typed at sign-up arrives quoted, bounded, with no URL but the service's link.
    const first = created[0].json().user.email as string;
    const [mail] = await settle(first, 1);
    expect(mail.subject).toBe('Confirm your e-mail address for Signet');
    expectInert(mail, 'verification');
    const { quoted, text } = inspect(mail);
    expect(quoted).toHaveLength(1);
    expect(quoted[0]).toMatch(/^URGENT: your account is locked/);
    expect(Array.from(quoted[0]).length).toBeLessThanOrEqual(60);
    expect(text).toMatch(/^Hello,$/m);
    expect(mail.text).toMatch(/http:\/\/localhost:3000\/verify-email\?token=ev_/);

    // Neighbours in the /24 share 20 at once: 5 were spent above, 15 more go, then 429.
    for (const neighbour of ['203.0.113.11', '203.0.113.12', '203.0.113.13']) {
      for (let i = 0; i < 5; i++) {
        expect((await signup(uniqueEmail('n'), neighbour, 'Ann')).statusCode).toBe(201);
      }
    }
    const fromNetwork = await signup(uniqueEmail('n'), '203.0.113.99', 'Ann');
    expect(fromNetwork.statusCode).toBe(429);
    expect(retryAfterOf(fromNetwork)).toBeGreaterThan(0);
    expect((await signup(uniqueEmail('n'), '198.51.100.1', 'Ann')).statusCode).toBe(201);

    // IPv6: one /64 is one network, whatever its addresses.
    for (let i = 1; i <= 4; i++) {
      for (let j = 0; j < 5; j++) {
        expect((await signup(uniqueEmail('v6'), `2001:db8:45:5::${i}`, 'Ann')).statusCode).toBe(
          201,
        );
      }
    }
    expect((await signup(uniqueEmail('v6'), '2001:db8:45:5::ff', 'Ann')).statusCode).toBe(429);
    expect((await signup(uniqueEmail('v6'), '2001:db8:45:6::1', 'Ann')).statusCode).toBe(201);
  });

  it('sends one address at most 3 account e-mails an hour, answering alike past that', async () => {
    const email = uniqueEmail('unverified');
    expect((await signup(email, '192.0.2.1', 'Una')).statusCode).toBe(201);
    const user = await service.ctx.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const answers = [];
    for (let i = 0; i < 4; i++) {
      // As if the recovery spacing (1, 2, 4 … minutes) had passed each time.
      await service.ctx.db.kysely
        .deleteFrom('account_events')
        .where('user_id', '=', user.id)
        .execute();
      const res = await service.ctx.app.inject({
        method: 'POST',
        url: '/api/auth/resend-verification',
        payload: { email },
        remoteAddress: `192.0.2.${10 + i}`,
      });
      answers.push({ status: res.statusCode, body: res.body });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0].status).toBe(202);
    const queued = await service.ctx.db.kysely
      .selectFrom('emails')
      .select('id')
      .where('to_address', '=', email)
      .execute();
    expect(queued).toHaveLength(3);
  });

  it('forgets addresses nothing was sent to for a day', async () => {
    const day = 24 * 3600_000;
    const row = (address_hash: string, ago: number) => ({
      kind: 'member_invitation',
      address_hash,
      sent_at: JSON.stringify([new Date(Date.now() - ago).toISOString()]),
      updated_at: new Date(Date.now() - ago).toISOString(),
    });
    await service.ctx.db.kysely
      .insertInto('recipient_mail_limits')
      .values([row('stale-sweep-test', day + 60_000), row('fresh-sweep-test', day - 60_000)])
      .execute();
    await deleteStaleRecipientSends(
      service.ctx.db.kysely,
      service.ctx.db.engine,
      new Date(Date.now() - day).toISOString(),
    );
    const left = await service.ctx.db.kysely
      .selectFrom('recipient_mail_limits')
      .select('address_hash')
      .where('address_hash', 'like', '%-sweep-test')
      .execute();
    expect(left).toEqual([{ address_hash: 'fresh-sweep-test' }]);
  });

  it("keeps the name typed at sign-up out of an unverified account's other e-mails", async () => {
    // Someone signs up with another person's address and a name of their choosing, then asks
    // for a password reset and signs up again: neither e-mail speaks that name.
    const victim = uniqueEmail('victim');
    expect((await signup(victim, '192.0.2.100')).statusCode).toBe(201);
    const reset = await service.ctx.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: victim },
      remoteAddress: '192.0.2.101',
    });
    expect(reset.statusCode).toBe(202);
    expect((await signup(victim, '192.0.2.102')).statusCode).toBe(201);
    const mails = await settle(victim, 3);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'Confirm your e-mail address for Signet',
      'Reset your Signet password',
      'Someone tried to sign up for Signet with your e-mail address',
    ]);
    for (const mail of mails) {
      expectInert(mail, mail.subject ?? '');
      if (!mail.subject?.startsWith('Confirm')) {
        expect(mail.text).not.toContain('URGENT');
        expect(mail.text).toMatch(/^Hello,$/m);
      }
    }
  });

  it('reminds one address at most 5 times an hour from all tenants together', async () => {
    const victim = uniqueEmail('signee');
    const attacker = await createUser(service.ctx, { name: ATTACK });
    const documents: string[] = [];
    for (let i = 0; i < 6; i++) {
      const tenant = await createTenantViaHttp(service.ctx, attacker.apiKey, `Tenant ${i}`);
      const created = await quickCreate(service.ctx, attacker.apiKey, {
        tenantId: tenant.id,
        signees: [{ email: victim, name: ATTACK }],
        extra: { name: ATTACK },
      });
      expect(created.status).toBe(201);
      const id = created.body.document.id as string;
      expect(
        (await api(service.ctx, attacker.apiKey, 'POST', `/api/documents/${id}/send-for-signing`))
          .status,
      ).toBe(200);
      documents.push(id);
    }
    const statuses = [];
    for (const id of documents) {
      const res = await api(service.ctx, attacker.apiKey, 'POST', `/api/documents/${id}/remind`);
      statuses.push(res.status);
      if (res.status !== 200) {
        expect(res.status).toBe(429);
        expect(res.body.code).toBe('rate_limited');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        // Nothing changed: no cooldown claimed, no reminder on the audit trail.
        const doc = await api(service.ctx, attacker.apiKey, 'GET', `/api/documents/${id}`);
        expect(doc.body.document.reminderCooldownUntil).toBeNull();
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const mails = await settle(victim, 11);
    expect(mails).toHaveLength(6 + 5);

    // The sender's and the document's names arrive quoted, bounded, without a URL.
    const invitation = mails.find((m) => m.subject?.startsWith('Signature requested'))!;
    expectInert(invitation, 'signing invitation');
    const { quoted } = inspect(invitation);
    expect(quoted.length).toBeGreaterThanOrEqual(2);
    for (const q of quoted) expect(Array.from(q).length).toBeLessThanOrEqual(100);
    expect(invitation.text).toMatch(/Sent by: "URGENT: your account is locked[^"]{0,60}"/);
  });
});

describe.each(ENGINES)('a production tenant without credits, on %s', (engine) => {
  const service = useMailingContext(engine, { env: productionEnv });

  it('cannot invite anyone, and sends nothing, until it has credits', async () => {
    const owner = await createUser(service.ctx);
    const tenant = await createTenantViaHttp(service.ctx, owner.apiKey, ATTACK);
    const stranger = uniqueEmail('stranger');
    const invite = () =>
      service.ctx.app.inject({
        method: 'POST',
        url: `/api/tenants/${tenant.id}/members`,
        headers: { 'x-api-key': owner.apiKey },
        payload: { email: stranger, role: 'member' },
      });
    const refused = await invite();
    expect(refused.statusCode).toBe(402);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json()).toMatchObject({ code: 'insufficient_credits', status: 402 });
    expect(refused.json().detail).toMatch(/without credits/);
    const rows = await service.ctx.db.kysely
      .selectFrom('member_invitations')
      .select('id')
      .where('tenant_id', '=', tenant.id)
      .execute();
    expect(rows).toEqual([]);
    const queued = await service.ctx.db.kysely
      .selectFrom('emails')
      .select('id')
      .where('to_address', '=', stranger)
      .execute();
    expect(queued).toEqual([]);

    // With credits, the same invitation goes out.
    await service.ctx.db.kysely
      .updateTable('tenants')
      .set({ credit_balance: 10 })
      .where('id', '=', tenant.id)
      .execute();
    expect((await invite()).statusCode).toBe(202);
    await service.smtp.waitFor((m) => toOf(m) === stranger, 15_000);
    expect(service.smtp.messages.filter((m) => toOf(m) === stranger)).toHaveLength(1);
  });
});

describe('two service instances on one PostgreSQL database', () => {
  let ctx: TestContext;
  let smtp: SmtpSink;
  let second: { app: App; db: Db };
  beforeAll(async () => {
    smtp = await startSmtpSink();
    ctx = await createTestContext('postgres', { env: { SMTP_URL: smtp.url } });
    // Its own connections and its own memory, as a second process has; only the database is shared.
    const db = openDatabase(ctx.config);
    const { app } = await buildApp({ config: ctx.config, db, logger: false });
    await app.ready();
    second = { app, db };
  });
  afterAll(async () => {
    await second.app.close();
    await second.db.close();
    await ctx.close();
    await smtp.close();
  });

  it('keeps one budget per address between them', async () => {
    const attacker = await createUser(ctx);
    const victim = uniqueEmail('victim');
    const answers = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const tenant = await createTenantViaHttp(ctx, attacker.apiKey, `Tenant ${i}`);
        const app = i % 2 === 0 ? ctx.app : second.app;
        return app.inject({
          method: 'POST',
          url: `/api/tenants/${tenant.id}/members`,
          headers: { 'x-api-key': attacker.apiKey },
          payload: { email: victim, role: 'member' },
        });
      }),
    );
    expect(answers.filter((a) => a.statusCode === 202)).toHaveLength(3);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(7);
    await smtp.waitFor((m) => toOf(m) === victim, 15_000);
    await new Promise((r) => setTimeout(r, 2500));
    expect(smtp.messages.filter((m) => toOf(m) === victim)).toHaveLength(3);
  });
});
