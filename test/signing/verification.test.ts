import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvidence } from '../../server/src/modules/sealing/evidence.js';
import { ENGINES } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { downloadFile, waitForStatus } from '../helpers/signing.js';
import { useMailingContext } from '../helpers/smtp.js';
import { waitUntil } from '../faults/support.js';
import { linkCall, mailedCode, sentWithAuth } from '../helpers/verification.js';

type Entry = { action: string; signeeId: string | null; details: Record<string, unknown> | null };

// Signer verification (decisions §13, docs/signing.md): an access code or an e-mailed code
// before a link shows anything; five wrong codes lock it; the certificate and evidence name
// the method. Real SMTP, real HTTP, both engines.
describe.each(ENGINES)('signer verification on %s', (engine) => {
  const m = useMailingContext(engine, {
    listen: true,
    env: (url) => ({ SMTP_URL: url, MAIL_RETRY_BASE_MS: '100', TRUST_PROXY: 'loopback' }),
  });
  let apiKey: string;
  let tenantId: string;
  let scratch: string;
  let client = 0;
  beforeAll(async () => {
    apiKey = (await createUser(m.ctx, { name: 'Sam Sender' })).apiKey;
    tenantId = (await createTenant(m.ctx, apiKey)).id;
    scratch = mkdtempSync(path.join(tmpdir(), 'signet-verification-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const address = (label: string) => `${label}.${Math.random().toString(36).slice(2, 7)}@ex.io`;
  // Each test signs from its own address: the per-address limits are not what is tested.
  const nextClient = () => `198.51.100.${++client}`;
  const trail = async (id: string) =>
    (await api(m.ctx, apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail as Entry[];
  const pdfText = (bytes: Buffer, name: string) => {
    const file = path.join(scratch, `${name}.pdf`);
    writeFileSync(file, bytes);
    return spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout;
  };
  const certificateText = async (id: string) => {
    const res = await fetch(`${m.ctx.baseUrl}/api/documents/${id}/certificate`, {
      headers: { 'x-api-key': apiKey },
    });
    expect(res.status).toBe(200);
    return pdfText(Buffer.from(await res.arrayBuffer()), `certificate-${id}`);
  };
  const signWith = async (token: string, cookie: string | null, from: string, name: string) =>
    linkCall(m.ctx, token, '/sign', {
      cookie,
      from,
      body: { consent: true, signature: { type: 'typed', text: name } },
    });

  it('shows nothing of an access-code link until its code is given, then opens it for an hour', async () => {
    const from = nextClient();
    const code = 'Otter-5521';
    const [ann, ben] = [address('ann'), address('ben')];
    const doc = await sentWithAuth(m.ctx, m.smtp, {
      apiKey,
      tenantId,
      name: 'Confidential merger terms',
      signees: [
        { email: ann, name: 'Annabel Quist', auth: 'access_code', accessCode: code },
        { email: ben, name: 'Benedikt Other' },
      ],
    });
    const [token, otherToken] = doc.tokens;

    // Before: 401 with the method and the signee's language only, on every route.
    const view = await linkCall(m.ctx, token!, '', { from });
    expect(view.status).toBe(401);
    expect(view.headers.get('content-type')).toContain('application/problem+json');
    expect(view.body).toMatchObject({ code: 'signee_auth_required', method: 'access_code' });
    expect(Object.keys(view.body).sort()).toEqual(
      ['code', 'detail', 'language', 'method', 'requestId', 'status', 'title', 'type'].sort(),
    );
    for (const secret of ['Confidential', 'merger', 'Annabel', 'Benedikt', ann, ben, 'pages']) {
      expect(view.text).not.toContain(secret);
    }
    const refused = [
      await linkCall(m.ctx, token!, '/file', { from }),
      await signWith(token!, null, from, 'Annabel Quist'),
      await linkCall(m.ctx, token!, '/decline', { from, body: { reason: 'no' } }),
    ];
    for (const r of refused) {
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('signee_auth_required');
      expect(r.text).not.toContain('%PDF');
      expect(r.text).not.toContain('Confidential');
    }
    expect((await linkCall(m.ctx, token!, '/file', { from, method: 'HEAD' })).status).toBe(401);
    // The page itself loads, but the link is not "opened" until the document is shown.
    expect((await fetch(`${m.ctx.baseUrl}/sign/${token}`)).status).toBe(200);
    const before = await api(m.ctx, apiKey, 'GET', `/api/documents/${doc.id}`);
    expect(before.body.signees[0].openedAt).toBeNull();
    // A link that asks for nothing is unchanged.
    expect((await linkCall(m.ctx, otherToken!, '', { from })).status).toBe(200);

    const wrong = await linkCall(m.ctx, token!, '/auth', { from, body: { code: 'otter-5521' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'signee_auth_invalid', remainingAttempts: 4 });
    expect(wrong.setCookie).toEqual([]);

    const right = await linkCall(m.ctx, token!, '/auth', { from, body: { code } });
    expect(right.status).toBe(200);
    expect(right.body.method).toBe('access_code');
    expect(Date.parse(right.body.expiresAt) - Date.now()).toBeGreaterThan(3590_000);
    expect(right.setCookie).toHaveLength(1);
    const set = right.setCookie[0]!;
    expect(set).toMatch(/^signet_verified_[0-9a-f]{32}=/);
    expect(set).toContain(`signet_verified_${doc.signees[0]!.id.replaceAll('-', '')}=`);
    expect(set).toMatch(/; Max-Age=3600/);
    expect(set).toMatch(/; Path=\/api\/signing\//);
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Lax/);
    expect(set).not.toMatch(/Secure/); // the request came over http
    expect(right.text + set).not.toContain(code);

    const cookie = right.cookie!;
    const opened = await linkCall(m.ctx, token!, '', { from, cookie });
    expect(opened.status).toBe(200);
    expect(opened.body.document.name).toBe('Confidential merger terms');
    const file = await linkCall(m.ctx, token!, '/file', { from, cookie });
    expect(file.status).toBe(200);
    expect(file.text.startsWith('%PDF')).toBe(true);
    // The cookie is this link's: forged or moved to the other signee's link, it opens nothing.
    const [name, value] = cookie.split('=');
    const forged = `${name}=${value!.slice(0, -2)}AA`;
    expect((await linkCall(m.ctx, token!, '', { from, cookie: forged })).status).toBe(401);
    const later = `${name}=${Number(value!.split('.')[0]) + 7200}.${value!.split('.')[1]}`;
    expect((await linkCall(m.ctx, token!, '', { from, cookie: later })).status).toBe(401);

    const signed = await signWith(token!, cookie, from, 'Annabel Quist');
    expect(signed.status, signed.text).toBe(200);
    const benSigned = await signWith(otherToken!, null, from, 'Benedikt Other');
    expect(benSigned.status).toBe(200);
    const done = await waitForStatus(m.ctx, apiKey, doc.id, 'signed');

    const entries = await trail(doc.id);
    const auth = entries.filter((e) => e.action.startsWith('auth '));
    expect(auth.map((e) => [e.action, e.details])).toEqual([
      ['auth failed', { method: 'access_code', remainingAttempts: 4 }],
      ['auth succeeded', { method: 'access_code' }],
    ]);
    expect(JSON.stringify(entries)).not.toContain(code);
    expect(JSON.stringify(entries)).not.toContain('otter-5521');

    const sealed = await downloadFile(m.ctx, done.document.downloadUrl);
    const evidence = readEvidence(sealed)!;
    expect(evidence.signees[0]!.verification).toMatchObject({
      method: 'access_code',
      identity: null,
    });
    expect(evidence.signees[1]!.verification).toBeNull();
    const text = await certificateText(doc.id);
    expect(text).toContain('verified');
    expect(text).toContain('Method: access code');
    expect(text).toContain('verification failed');
    expect(text).not.toContain(code);
  });

  it('e-mails a 6-digit code through the outbox that opens the link once', async () => {
    const from = nextClient();
    const to = address('otp');
    const doc = await sentWithAuth(m.ctx, m.smtp, {
      apiKey,
      tenantId,
      name: 'Lease renewal',
      signees: [{ email: to, name: 'Olga Pratt', auth: 'email_otp' }],
    });
    const token = doc.tokens[0]!;
    const gate = await linkCall(m.ctx, token, '', { from });
    expect(gate.status).toBe(401);
    expect(gate.body).toMatchObject({ code: 'signee_auth_required', method: 'email_otp' });

    // No code sent yet: any code is wrong.
    const early = await linkCall(m.ctx, token, '/auth', { from, body: { code: '000000' } });
    expect(early.body.code).toBe('signee_auth_invalid');

    const seen = m.smtp.messages.length;
    const sent = await linkCall(m.ctx, token, '/auth/send', { from, method: 'POST' });
    expect(sent.status).toBe(202);
    expect(Date.parse(sent.body.expiresAt) - Date.now()).toBeGreaterThan(590_000);
    expect(Date.parse(sent.body.expiresAt) - Date.now()).toBeLessThanOrEqual(600_000);
    expect(sent.text).not.toMatch(/\d{6}"/);
    const code = await mailedCode(m.smtp, to, seen);
    // One send per 30 seconds.
    const again = await linkCall(m.ctx, token, '/auth/send', { from, method: 'POST' });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('rate_limited');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(20);

    // A new code replaces the old one (the 30 seconds are moved into the past here).
    await m.ctx.db.kysely
      .updateTable('signee_auth_state')
      .set({ otp_sent_at: new Date(Date.now() - 31_000).toISOString() })
      .where('signee_id', '=', doc.signees[0]!.id)
      .execute();
    const seen2 = m.smtp.messages.length;
    expect((await linkCall(m.ctx, token, '/auth/send', { from, method: 'POST' })).status).toBe(202);
    const code2 = await mailedCode(m.smtp, to, seen2);
    if (code2 !== code) {
      const old = await linkCall(m.ctx, token, '/auth', { from, body: { code } });
      expect(old.body.code).toBe('signee_auth_invalid');
    }
    const right = await linkCall(m.ctx, token, '/auth', { from, body: { code: code2 } });
    expect(right.status, right.text).toBe(200);
    expect(right.body.method).toBe('email_otp');
    const reused = await linkCall(m.ctx, token, '/auth', { from, body: { code: code2 } });
    expect(reused.body.code).toBe('signee_auth_invalid');

    const signed = await signWith(token, right.cookie, from, 'Olga Pratt');
    expect(signed.status, signed.text).toBe(200);
    const done = await waitForStatus(m.ctx, apiKey, doc.id, 'signed');

    // The outbox kept the code only until delivery; no answer or entry ever held it.
    await waitUntil(async () => {
      const rows = await m.ctx.db.kysely
        .selectFrom('emails')
        .select(['status', 'text', 'html'])
        .where('kind', '=', 'verification')
        .where('to_address', '=', to)
        .execute();
      return rows.length === 2 && rows.every((r) => r.status === 'sent');
    }, 'the codes to be delivered');
    const outbox = JSON.stringify(
      await m.ctx.db.kysely.selectFrom('emails').selectAll().where('to_address', '=', to).execute(),
    );
    const entries = await trail(doc.id);
    for (const secret of [code, code2]) {
      expect(outbox).not.toContain(secret);
      expect(JSON.stringify(entries)).not.toContain(secret);
    }
    expect(
      entries.filter((e) => e.action === 'e-mailed' && e.details?.kind === 'verification'),
    ).toHaveLength(2);
    expect(entries.find((e) => e.action === 'auth succeeded')?.details).toEqual({
      method: 'email_otp',
    });

    const evidence = readEvidence(await downloadFile(m.ctx, done.document.downloadUrl))!;
    expect(evidence.signees[0]!.verification?.method).toBe('email_otp');
    const text = await certificateText(doc.id);
    expect(text).toContain('Method: code e-mailed to the signee');
    expect(text).toContain('verification code');
  });
});
