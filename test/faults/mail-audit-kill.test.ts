import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMailTransport,
  deliverEmail,
  MailRefusedError,
  queueEmail,
} from '../../server/src/modules/mail/mail.service.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';
import { spawnService } from '../webhooks/service-process.js';
import { waitUntil } from './support.js';

const ROWS = 20;

// An e-mail's audit entry goes in the transaction that settles its outbox row (mail.service.ts
// `delivered`/`refused`): a process killed before that commit leaves the row unsettled and no
// entry, and the outbox delivers it again; killed after it, both are there and nothing
// delivers it again. Here a real `signet serve` is killed with SIGKILL while its jobs deliver
// a bulk send's invitations, a second one finishes them, and every e-mail has one entry.
describe.each(ENGINES)('e-mail audit entries across a SIGKILL on %s', (engine) => {
  let ctx: TestContext;
  let smtp: SmtpSink;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    // The test's own service reads and writes the tables; it runs no jobs.
    ctx = await createTestContext(engine, {
      listen: true,
      workers: false,
      env: { SMTP_URL: smtp.url },
    });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('keeps exactly one entry per e-mail when the process dies mid-delivery', async () => {
    const env = {
      DATA_DIR: ctx.config.dataDir,
      ...(ctx.config.databaseUrl ? { DATABASE_URL: ctx.config.databaseUrl } : {}),
      SMTP_URL: smtp.url,
      MAIL_RETRY_BASE_MS: '200',
    };
    const template = await createTemplate(ctx, apiKey, {
      tenantId,
      template: { name: 'Killed lease', roles: [{ name: 'A' }, { name: 'B' }] },
      fields: signatureFields(2),
    });
    expect(template.status).toBe(201);
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      signees: [
        { role: 0, email: `k${i}a@ex.io`, name: `A ${i}` },
        { role: 1, email: `k${i}b@ex.io`, name: `B ${i}` },
      ],
    }));
    const first = await spawnService(env);
    let second: Awaited<ReturnType<typeof spawnService>> | null = null;
    try {
      const bulk = await api(
        ctx,
        apiKey,
        'POST',
        `/api/templates/${template.body.template.id}/bulk-sends`,
        { rows },
      );
      expect(bulk.status).toBe(202);
      // Killed while invitations are on the wire: some delivered, some not yet.
      await waitUntil(() => smtp.messages.length >= 3, 'the first invitations to arrive');
      await first.kill9();
      second = await spawnService(env);
      const outbox = () =>
        ctx.db.kysely
          .selectFrom('emails')
          .select(['id', 'status', 'document_id', 'signee_id', 'to_address'])
          .where('kind', '=', 'invitation')
          .where('to_address', 'like', 'k%@ex.io')
          .execute();
      await waitUntil(
        async () => {
          const all = await outbox();
          return all.length === 2 * ROWS && all.every((r) => r.status === 'sent');
        },
        'every invitation to be sent',
        60_000,
      );
      const entries = await ctx.db.kysely
        .selectFrom('audit_entries')
        .select(['signee_id', 'details'])
        .where('action', '=', 'e-mailed')
        .where('tenant_id', '=', tenantId)
        .execute();
      for (const row of await outbox()) {
        const own = entries.filter((e) => e.signee_id === row.signee_id);
        expect(own, row.to_address).toHaveLength(1);
        expect(JSON.parse(own[0].details!)).toEqual({ to: row.to_address, kind: 'invitation' });
      }
      expect(entries).toHaveLength(2 * ROWS);
      // At least once on the wire: an e-mail the server accepted just before the kill, its row
      // not yet settled, goes again (a trial run: 56 messages for 40 e-mails, 40 entries).
      for (const r of rows.flatMap((x) => x.signees)) {
        expect(
          smtp.recipients.some((to) => to.includes(r.email)),
          r.email,
        ).toBe(true);
      }
    } finally {
      await first.kill9();
      await second?.stop();
    }
  });

  it('records one entry when two deliveries of one e-mail race', async () => {
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      signees: [{ email: 'race@ex.io', name: 'Race' }],
    });
    const documentId = created.body.document.id as string;
    const signeeId = created.body.signees[0].id as string;
    const emailId = await ctx.db.kysely.transaction().execute((trx) =>
      queueEmail(trx, {
        to: 'race@ex.io',
        tenantId,
        subject: 'Race',
        html: '<p>race</p>',
        text: 'race',
        audit: { documentId, signeeId, kind: 'reminder' },
      }),
    );
    const transport = createMailTransport(smtp.url);
    try {
      const deps = { db: ctx.db, transport, mailFrom: 'signet@ex.io' };
      const rows = await Promise.all([1, 2, 3].map(() => deliverEmail(deps, emailId)));
      expect(rows.every((r) => r.status === 'sent')).toBe(true);
    } finally {
      transport?.close();
    }
    const entries = await ctx.db.kysely
      .selectFrom('audit_entries')
      .select(['action', 'details'])
      .where('document_id', '=', documentId)
      .where('action', '=', 'e-mailed')
      .execute();
    expect(entries.map((e) => JSON.parse(e.details!))).toEqual([
      { to: 'race@ex.io', kind: 'reminder' },
    ]);
  });
  it("records the last attempt's failure as final: refused, e-mail failed, no job left", async () => {
    const created = await quickCreate(ctx, apiKey, {
      tenantId,
      signees: [{ email: 'last@ex.io', name: 'Last' }],
    });
    const documentId = created.body.document.id as string;
    const signeeId = created.body.signees[0].id as string;
    const emailId = await ctx.db.kysely.transaction().execute((trx) =>
      queueEmail(trx, {
        to: 'last@ex.io',
        tenantId,
        subject: 'Last',
        html: '<p>last</p>',
        text: 'last',
        audit: { documentId, signeeId, kind: 'invitation' },
      }),
    );
    // Port 1: nothing listens, the connection is refused (a failure a retry could mend).
    const transport = createMailTransport('smtp://127.0.0.1:1');
    const deps = { db: ctx.db, transport, mailFrom: 'signet@ex.io' };
    try {
      await expect(deliverEmail(deps, emailId)).rejects.toThrow(/ECONNREFUSED/);
      const retried = await ctx.db.kysely
        .selectFrom('emails')
        .select('status')
        .where('id', '=', emailId)
        .executeTakeFirstOrThrow();
      expect(retried.status).toBe('failed');
      await expect(deliverEmail(deps, emailId, { final: true })).rejects.toThrow(MailRefusedError);
    } finally {
      transport?.close();
    }
    const row = await ctx.db.kysely
      .selectFrom('emails')
      .select(['status', 'error'])
      .where('id', '=', emailId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('refused');
    const job = await ctx.db.kysely
      .selectFrom('jobs')
      .select('id')
      .where('id', '=', emailId)
      .executeTakeFirst();
    expect(job).toBeUndefined();
    const entries = await ctx.db.kysely
      .selectFrom('audit_entries')
      .select(['action', 'signee_id', 'details'])
      .where('document_id', '=', documentId)
      .where('action', 'like', 'e-mail%')
      .execute();
    expect(entries.map((e) => [e.action, e.signee_id])).toEqual([['e-mail failed', signeeId]]);
    expect(JSON.parse(entries[0].details!)).toMatchObject({
      to: 'last@ex.io',
      kind: 'invitation',
      error: expect.stringMatching(/ECONNREFUSED/),
    });
  });
});
