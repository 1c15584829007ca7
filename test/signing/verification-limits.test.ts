import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { useMailingContext } from '../helpers/smtp.js';
import { linkCall, sentWithAuth } from '../helpers/verification.js';

type Entry = { action: string; signeeId: string | null; details: Record<string, unknown> | null };

// Signer verification's limits (decisions §13, docs/signing.md): five wrong codes lock a link
// for 15 minutes, attempts sent at once cannot pass that, and a link that asks for nothing
// takes no code. Real HTTP, both engines; verification.test.ts has the flows.
describe.each(ENGINES)('signer verification limits on %s', (engine) => {
  const m = useMailingContext(engine, {
    listen: true,
    env: (url) => ({ SMTP_URL: url, MAIL_RETRY_BASE_MS: '100', TRUST_PROXY: 'loopback' }),
  });
  let apiKey: string;
  let tenantId: string;
  let client = 0;
  beforeAll(async () => {
    apiKey = (await createUser(m.ctx, { name: 'Sam Sender' })).apiKey;
    tenantId = (await createTenant(m.ctx, apiKey)).id;
  });

  const address = (label: string) => `${label}.${Math.random().toString(36).slice(2, 7)}@ex.io`;
  // Each test from its own address: the per-address limits are not what is tested.
  const nextClient = () => `198.51.100.${++client}`;
  const trail = async (id: string) =>
    (await api(m.ctx, apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail as Entry[];

  it('locks a link for 15 minutes after five wrong codes', async () => {
    const from = nextClient();
    const code = 'Kestrel-0042';
    const doc = await sentWithAuth(m.ctx, m.smtp, {
      apiKey,
      tenantId,
      name: 'Loan agreement',
      signees: [
        { email: address('lock'), name: 'Lou Locke', auth: 'access_code', accessCode: code },
      ],
    });
    const token = doc.tokens[0]!;
    for (let i = 1; i <= 5; i++) {
      const wrong = await linkCall(m.ctx, token, '/auth', { from, body: { code: `guess-${i}` } });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ code: 'signee_auth_invalid', remainingAttempts: 5 - i });
    }
    // Even the right code is refused now, with when to come back.
    const locked = await linkCall(m.ctx, token, '/auth', { from, body: { code } });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('signee_auth_locked');
    const retry = Number(locked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(880);
    expect(retry).toBeLessThanOrEqual(900);
    expect(locked.setCookie).toEqual([]);
    expect((await linkCall(m.ctx, token, '', { from })).status).toBe(401);

    const entries = await trail(doc.id);
    expect(entries.filter((e) => e.action === 'auth failed')).toHaveLength(5);
    const lock = entries.filter((e) => e.action === 'auth locked');
    expect(lock).toHaveLength(1);
    expect(lock[0]!.details).toMatchObject({ method: 'access_code' });
    expect(JSON.stringify(entries)).not.toContain('guess-');

    // Fifteen minutes later (moved into the past here) the right code opens it.
    await m.ctx.db.kysely
      .updateTable('signee_auth_state')
      .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
      .where('signee_id', '=', doc.signees[0]!.id)
      .execute();
    const right = await linkCall(m.ctx, token, '/auth', { from, body: { code } });
    expect(right.status, right.text).toBe(200);
  });

  it('counts attempts sent at once: no more than five are ever checked', async () => {
    const from = nextClient();
    const code = 'Heron-7710';
    const doc = await sentWithAuth(m.ctx, m.smtp, {
      apiKey,
      tenantId,
      name: 'Parallel guesses',
      signees: [
        { email: address('par'), name: 'Pat Rallel', auth: 'access_code', accessCode: code },
      ],
    });
    const token = doc.tokens[0]!;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        linkCall(m.ctx, token, '/auth', { from, body: { code: `wrong-${i}` } }),
      ),
    );
    expect(answers.filter((a) => a.body.code === 'signee_auth_invalid').length).toBeLessThanOrEqual(
      5,
    );
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    const entries = await trail(doc.id);
    expect(entries.filter((e) => e.action === 'auth failed').length).toBeLessThanOrEqual(5);
    expect((await linkCall(m.ctx, token, '/auth', { from, body: { code } })).status).toBe(429);
  });

  it('refuses a code or a send where the link asks for none', async () => {
    const from = nextClient();
    const doc = await sentWithAuth(m.ctx, m.smtp, {
      apiKey,
      tenantId,
      name: 'Plain',
      signees: [{ email: address('plain'), name: 'Pia Plain' }],
    });
    const token = doc.tokens[0]!;
    expect((await linkCall(m.ctx, token, '/auth', { from, body: { code: '123456' } })).status).toBe(
      409,
    );
    expect((await linkCall(m.ctx, token, '/auth/send', { from, method: 'POST' })).status).toBe(409);
    const both = await linkCall(m.ctx, token, '/auth', {
      from,
      body: { code: '1', identity: 'x' },
    });
    expect(both.status).toBe(422);
    expect(
      (await linkCall(m.ctx, 'sg_unknownunknownunknown', '/auth', { from, body: { code: '1' } }))
        .status,
    ).toBe(404);
  });
});
