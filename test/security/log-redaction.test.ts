import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../server/src/http/log-redaction.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import {
  createTenant,
  createUser,
  uniqueEmail,
  verificationTokenFor,
} from '../helpers/factories.js';
import { signingTokenFromMailbox, TINY_PNG } from '../helpers/signing.js';

// The newest e-mail to an address, its text.
async function lastEmailText(ctx: TestContext, to: string) {
  const end = Date.now() + 10_000;
  for (;;) {
    const row = await ctx.db.kysely
      .selectFrom('emails')
      .select('text')
      .where('to_address', '=', to.toLowerCase())
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    if (row || Date.now() > end) return row?.text ?? '';
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(ENGINES)('secrets kept out of the request log on %s', (engine) => {
  let ctx: TestContext;
  const lines: string[] = [];
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      listen: true,
      logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
    });
  });
  afterAll(() => ctx.close());

  it('logs no signing, invitation, verification, reset or copy token and no URL signature', async () => {
    const secrets: string[] = [];
    const get = (url: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'GET', url, headers });

    // E-mail verification, through the link.
    const email = uniqueEmail('logs');
    const signup = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: 'correct horse battery', name: 'Log Reader' },
    });
    expect(signup.statusCode).toBe(201);
    const verification = await verificationTokenFor(ctx, email);
    secrets.push(verification);
    expect((await get(`/verify-email?token=${verification}`)).statusCode).toBe(200);

    // A password reset link opened (a dashboard page that carries the token).
    await ctx.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email } });
    const reset = /reset-password\?token=([\w-]+)/.exec(await lastEmailText(ctx, email))?.[1];
    expect(reset).toBeTruthy();
    secrets.push(reset!);
    await get(`/reset-password?token=${reset}`);

    // A document: its download URL, its signing link (page, JSON, file, sign).
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const signee = { email: uniqueEmail('signee'), name: 'Sam Signee' };
    const made = await quickCreate(ctx, owner.apiKey, { tenantId, signees: [signee] });
    expect(made.status).toBe(201);
    const download = new URL(made.body.document.downloadUrl as string);
    secrets.push(download.searchParams.get('signature')!);
    expect((await get(`${download.pathname}${download.search}`)).statusCode).toBe(200);
    const documentId = made.body.document.id as string;
    const sent = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/documents/${documentId}/send-for-signing`,
    );
    expect(sent.status).toBe(200);
    const token = await signingTokenFromMailbox(ctx, signee.email);
    secrets.push(token);
    expect((await get(`/sign/${token}`)).statusCode).toBe(200);
    expect((await get(`/api/signing/${token}`)).statusCode).toBe(200);
    expect((await get(`/api/signing/${token}/file`)).statusCode).toBe(200);
    const signed = await ctx.app.inject({
      method: 'POST',
      url: `/api/signing/${token}/sign`,
      payload: { consent: true, signature: { type: 'drawn', image: TINY_PNG } },
    });
    expect(signed.statusCode, signed.body).toBe(200);

    // A member invitation: its page, its JSON, its acceptance.
    const invitee = await createUser(ctx);
    const invited = await api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenantId}/members`, {
      email: invitee.email,
      role: 'member',
    });
    expect(invited.status).toBe(202);
    const invitation = /\/invitations\/(iv_[\w-]+)/.exec(
      await lastEmailText(ctx, invitee.email),
    )?.[1];
    expect(invitation).toBeTruthy();
    secrets.push(invitation!);
    await get(`/invitations/${invitation}`);
    await get(`/api/invitations/${invitation}`, { 'x-api-key': invitee.apiKey });
    const accepted = await ctx.app.inject({
      method: 'POST',
      url: `/api/invitations/${invitation}/accept`,
      headers: { 'x-api-key': invitee.apiKey },
    });
    expect(accepted.statusCode).toBe(200);

    // A copy link (this one unknown: the log line is the same).
    const copy = 'sc_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';
    secrets.push(copy);
    await get(`/api/copies/${copy}`);

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(20);
    for (const secret of secrets) expect(log, secret).not.toContain(secret);
    // The requests are still logged, with the secret parts replaced.
    expect(log).toContain('/api/signing/[token]/sign');
    expect(log).toContain('/sign/[token]');
    expect(log).toContain('/api/invitations/[token]/accept');
    expect(log).toContain('/api/copies/[token]');
    expect(log).toContain('/verify-email?token=[redacted]');
    expect(log).toMatch(/\/api\/files\/[\w-]+\/original\?expires=\d+&signature=\[redacted\]/);
  });
});

describe('redactUrl', () => {
  it('replaces link tokens and secret query values, and leaves the rest alone', () => {
    expect(redactUrl('/api/signing/sg_abc/sign?x=1')).toBe('/api/signing/[token]/sign?x=1');
    expect(redactUrl('/sign/sg_abc?identity=eyJ.x.y')).toBe('/sign/[token]?identity=[redacted]');
    expect(redactUrl('/api/documents/123?tenantId=t&cursor=c')).toBe(
      '/api/documents/123?tenantId=t&cursor=c',
    );
    expect(redactUrl('/api/tenants/t/invitations/abc')).toBe('/api/tenants/t/invitations/abc');
    expect(redactUrl('/api/x/sg%5Fabc')).toBe('/api/x/[token]');
    expect(redactUrl('/p?Signature=a&next=sg_b')).toBe('/p?Signature=[redacted]&next=[redacted]');
  });
});
