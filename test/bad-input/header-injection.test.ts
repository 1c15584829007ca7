import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser, createUserViaHttp } from '../helpers/factories.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';

const LEAK = 'leak@attacker.test';
const inject = (where: string) => `\r\nBcc: ${LEAK}\r\nX-Injected: ${where}\r\n\r\nbody`;

describe.each(ENGINES)('header injection through e-mail fields on %s', (engine) => {
  let ctx: TestContext;
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    ctx = await createTestContext(engine, { listen: true, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  function expectNoInjectedHeaders() {
    expect(smtp.messages.length).toBeGreaterThan(0);
    smtp.messages.forEach((m, i) => {
      expect(m.headers.has('x-injected'), m.subject).toBe(false);
      expect(m.bcc).toBeUndefined();
      expect(m.subject ?? '').not.toMatch(/[\r\n]/);
      expect(smtp.recipients[i]).not.toContain(LEAK);
      expect(smtp.recipients[i]).toHaveLength(1);
    });
  }

  it('refuses CR/LF in e-mail addresses with 422', async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const evil = `victim@example.com${inject('address')}`;
    const signup = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: evil, password: 'a long password', name: 'X' },
    });
    expect(signup.statusCode).toBe(422);
    const doc = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email: evil, name: 'Vic' }],
    });
    expect(doc.status).toBe(422);
    expect(doc.body.errors[0].path).toBe('signees.0.email');
    const member = await api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenantId}/members`, {
      email: evil,
      role: 'member',
    });
    expect(member.status).toBe(422);
  });

  it('keeps CR/LF in names, document names and messages out of the message headers', async () => {
    // Through signup: the name reaches the mail headers the way a real sender's would.
    const owner = await createUserViaHttp(ctx, { name: `Mallory${inject('sender')}` });
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [{ email: 'victim@example.com', name: `Vic${inject('signee')}` }],
      extra: { name: `Contract${inject('document')}`, signingMessage: `Hello${inject('message')}` },
    });
    expect(created.status).toBe(201);
    const id = created.body.document.id as string;
    const sent = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    expect(sent.status).toBe(200);
    expect(sent.body.deliveries[0].status).toBe('sent');
    const invitation = await smtp.waitFor(
      (m) => (m.to as { text: string }).text === 'victim@example.com',
    );
    // The text travels as text: in the subject folded to one line, in the body as written.
    expect(invitation.subject).toContain('Contract');
    expect(invitation.text).toContain('X-Injected: message');
    expect((await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/remind`)).status).toBe(200);
    await smtp.waitFor((m) => /Reminder/i.test(m.subject ?? ''));
    expectNoInjectedHeaders();
    // What was sent is what is stored: the fields come back verbatim.
    const doc = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`);
    expect(doc.body.document.name).toBe(`Contract${inject('document')}`);
    expect(doc.body.signees[0].name).toBe(`Vic${inject('signee')}`);
  });
});
