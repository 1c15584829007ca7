import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { waitUntil } from './support.js';

// A port nothing listens on (for now): connecting to it is refused at once.
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const toOf = (m: { to?: unknown }) => (m.to as { text: string } | undefined)?.text;

describe.each(ENGINES)('SMTP down on %s', (engine) => {
  let ctx: TestContext;
  let sink: SmtpSink | null = null;
  let port: number;
  beforeAll(async () => {
    port = await closedPort();
    ctx = await createTestContext(engine, {
      listen: true,
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_RETRY_BASE_MS: '300' },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await sink?.close();
  });

  it('reports failed deliveries, keeps the document in process, and delivers once SMTP is back', async () => {
    const owner = await createUser(ctx, { name: 'Sam Sender' });
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      extra: { name: 'Outage contract' },
    });
    expect(created.status).toBe(201);
    const id = created.body.document.id as string;

    const sent = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    expect(sent.status).toBe(200);
    expect(sent.body.document.status).toBe('in_process');
    expect(sent.body.deliveries).toHaveLength(2);
    for (const d of sent.body.deliveries) {
      expect(d.status).toBe('failed');
      expect(d.error).toMatch(/ECONNREFUSED/);
    }
    // A refused connection is not a refusal for good: the outbox retries, and the trail
    // records each e-mail once, with the outcome it ends with.
    const audit = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`);
    const mailEntries = audit.body.auditTrail.filter((e: { action: string }) =>
      e.action.startsWith('e-mail'),
    );
    expect(mailEntries).toEqual([]);
    expect((await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document.status).toBe(
      'in_process',
    );

    // The mail server comes back on the same address.
    sink = await startSmtpSink({ port });

    const reminded = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/remind`);
    expect(reminded.status).toBe(200);
    expect(reminded.body.deliveries.map((d: { status: string }) => d.status)).toEqual([
      'sent',
      'sent',
    ]);
    const reminder = await sink.waitFor(
      (m) => toOf(m) === 'alice@example.com' && /Reminder/i.test(m.subject ?? ''),
    );
    expect(reminder.text).toMatch(/\/sign\/sg_/);

    // The outbox retries the original invitations in the background, without any request.
    for (const to of ['alice@example.com', 'bob@example.com']) {
      const original = await sink.waitFor(
        (m) => toOf(m) === to && m.subject === 'Signature requested: "Outage contract"',
        20_000,
      );
      expect(original.text).toMatch(/\/sign\/sg_/);
    }
    // The sink has the message a moment before the outbox row says so.
    await waitUntil(async () => {
      const outbox = await ctx.db.kysely
        .selectFrom('emails')
        .select('status')
        .where('to_address', 'in', ['alice@example.com', 'bob@example.com'])
        .execute();
      return outbox.length === 4 && outbox.every((e) => e.status === 'sent');
    }, 'all four invitations to be marked sent');
    const trail = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
      .auditTrail as Array<{ action: string; details: { to: string; kind: string } | null }>;
    const emailed = trail
      .filter((e) => e.action.startsWith('e-mail'))
      .map((e) => `${e.action} ${e.details?.kind} ${e.details?.to}`)
      .sort();
    expect(emailed).toEqual([
      'e-mailed invitation alice@example.com',
      'e-mailed invitation bob@example.com',
      'e-mailed reminder alice@example.com',
      'e-mailed reminder bob@example.com',
    ]);
    expect((await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.document.status).toBe(
      'in_process',
    );
  });
});
