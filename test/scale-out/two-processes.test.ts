import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSelfSignedP12 } from '../../server/src/modules/sealing/seal-certificate.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { spawnService, type ServiceProcess } from '../webhooks/service-process.js';

// Two `signet serve` processes that share nothing but what a real deployment shares: one
// PostgreSQL database, one S3 bucket, SECRET_KEY and the seal certificate. Each has its own
// DATA_DIR, so anything either one kept on local disk would show up as a failure here.

// s3rver ships no type declarations; this is the part of its API used here.
type S3rverInstance = { run: () => Promise<{ port: number }>; close: () => Promise<void> };
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

type Arrival = { path: string; eventId: string; attempt: number };

/** A loopback receiver: `/ok` answers 200, `/fail` answers 500; every request is recorded. */
async function startReceiver() {
  const arrivals: Arrival[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push({
        path: req.url ?? '',
        eventId: String(req.headers['x-service-webhook-id']),
        attempt: Number(req.headers['x-service-webhook-attempt']),
      });
      res.writeHead(req.url === '/ok' ? 200 : 500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    arrivals,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('two service processes on one PostgreSQL database and one bucket', () => {
  let ctx: TestContext;
  let s3: S3rverInstance;
  let smtp: SmtpSink;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let dir: string;
  let env: Record<string, string>;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let apiKey: string;
  let tenantId: string;
  const webhookIds: Record<'ok' | 'fail', string> = { ok: '', fail: '' };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'signet-scale-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: path.join(dir, 's3'),
      configureBuckets: [{ name: 'signet-scale' }],
    });
    const { port } = await s3.run();
    smtp = await startSmtpSink();
    receiver = await startReceiver();
    // One certificate for every process: with per-process sandbox certificates the sealed
    // documents of one deployment would carry different seals depending on who claimed the job.
    const password = randomBytes(12).toString('hex');
    const p12Path = path.join(dir, 'seal.p12');
    writeFileSync(p12Path, createSelfSignedP12('Signet Scale-out Test Seal', password));
    const shared = {
      STORAGE_URL: `s3://signet-scale?endpoint=http://127.0.0.1:${port}&region=us-east-1&forcePathStyle=true&accessKeyId=S3RVER&secretAccessKey=S3RVER`,
      SECRET_KEY: randomBytes(32).toString('hex'),
      SEAL_P12_PATH: p12Path,
      SEAL_P12_PASSWORD: password,
      SMTP_URL: smtp.url,
      // Links point at the load balancer, not at either process.
      PUBLIC_URL: 'http://signet.invalid',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: '0,300,900',
    };
    // The test's own app only sets up users and reads the database: its workers stay off.
    ctx = await createTestContext('postgres', { workers: false, env: shared });
    env = { ...shared, DATABASE_URL: ctx.config.databaseUrl!, LOG_LEVEL: 'warn' };
    [a, b] = await Promise.all([
      spawnService({ ...env, DATA_DIR: path.join(dir, 'a') }),
      spawnService({ ...env, DATA_DIR: path.join(dir, 'b') }),
    ]);
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (
      await call<{ tenant: { id: string } }>(a, 'POST', '/api/tenants', 201, { name: 'Scale' })
    ).tenant.id;
    // Signee events on: then every event /api/events lists is one every webhook receives.
    await call(a, 'PATCH', `/api/tenants/${tenantId}/settings`, 200, { signeeEvents: true });
    for (const name of ['ok', 'fail'] as const) {
      const url = `${receiver.base}/${name}`;
      const created = await call<{ webhook: { id: string } }>(
        b,
        'POST',
        `/api/tenants/${tenantId}/webhooks`,
        201,
        { url },
      );
      webhookIds[name] = created.webhook.id;
    }
  });

  afterAll(async () => {
    await Promise.all([a?.kill9(), b?.kill9()]);
    await ctx?.close();
    await Promise.all([s3?.close(), smtp?.close(), receiver?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  // The caller names the part of the JSON body it reads; the test's expectations check it.
  async function call<T = unknown>(
    on: ServiceProcess,
    method: string,
    url: string,
    status: number,
    body?: unknown,
  ): Promise<T> {
    const res = await fetch(`${on.baseUrl}${url}`, {
      method,
      headers: {
        'x-api-key': apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.status, `${method} ${url}: ${text}`).toBe(status);
    return (text ? JSON.parse(text) : null) as T;
  }

  type DocumentBody = { document: { status: string; downloadUrl: string } };
  type Delivery = { eventId: string; status: string; attempts: unknown[] };

  async function createOn(on: ServiceProcess, email: string, pages = 2): Promise<string> {
    const form = new FormData();
    form.append('tenantId', tenantId);
    form.append('signees', JSON.stringify([{ email, name: 'Sam Signee' }]));
    const pdf = new Uint8Array(makePdf({ pages }));
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'contract.pdf');
    const res = await fetch(`${on.baseUrl}/api/documents/quick-create`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey },
      body: form,
    });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    return (JSON.parse(text) as { document: { id: string } }).document.id;
  }

  // The invitation went through real SMTP; its link names PUBLIC_URL, the token is what counts.
  async function tokenFor(email: string): Promise<string> {
    const mail = await smtp.waitFor(
      (m) =>
        m.to !== undefined &&
        m.text?.includes('/sign/') === true &&
        JSON.stringify(m.to).includes(email),
      20_000,
    );
    const token = /\/sign\/(sg_[\w-]+)/.exec(mail.text ?? '')?.[1];
    if (!token) throw new Error(`no signing link in the invitation to ${email}`);
    return token;
  }

  async function signOn(on: ServiceProcess, token: string) {
    const res = await fetch(`${on.baseUrl}/api/signing/${token}/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ consent: true, signature: { type: 'typed', text: 'Sam Signee' } }),
    });
    expect(res.status, await res.text()).toBe(200);
  }

  async function expectSealedOnce(documentId: string) {
    const audit = await ctx.db.kysely
      .selectFrom('audit_entries')
      .select('id')
      .where('document_id', '=', documentId)
      .where('action', '=', 'sealed')
      .execute();
    expect(audit, `sealed audit entries of ${documentId}`).toHaveLength(1);
    const events = await ctx.db.kysely
      .selectFrom('events')
      .select('id')
      .where('document_id', '=', documentId)
      .where('old_status', '=', 'pending_seal')
      .where('new_status', '=', 'signed')
      .execute();
    expect(events, `pending_seal→signed events of ${documentId}`).toHaveLength(1);
  }

  // Every event of the tenant is delivered to /ok and recorded as failed after three attempts
  // on /fail, each attempt arriving once, whichever process made it.
  async function expectEveryEventDeliveredOnce(on: ServiceProcess, timeoutMs: number) {
    const events: Array<{ id: string }> = [];
    for (let more = true; more;) {
      const after = events.length ? `&after=${events.at(-1)!.id}` : '';
      const page = await call<{ events: Array<{ id: string }>; hasMore: boolean }>(
        on,
        'GET',
        `/api/events?tenantId=${tenantId}${after}`,
        200,
      );
      events.push(...page.events);
      more = page.hasMore;
    }
    expect(events.length).toBeGreaterThan(0);
    await until(
      'every delivery to finish',
      async () => {
        const open = await ctx.db.kysely
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '=', 'pending')
          .executeTakeFirst();
        return open ? null : true;
      },
      timeoutMs,
    );
    for (const [name, webhookId] of Object.entries(webhookIds)) {
      const byEvent = new Map<string, Delivery>();
      for (let cursor: string | null = ''; cursor !== null;) {
        const query = `limit=100${cursor ? `&cursor=${cursor}` : ''}`;
        const page: { deliveries: Delivery[]; nextCursor: string | null } = await call(
          on,
          'GET',
          `/api/tenants/${tenantId}/webhooks/${webhookId}/deliveries?${query}`,
          200,
        );
        for (const d of page.deliveries) byEvent.set(d.eventId, d);
        cursor = page.nextCursor;
      }
      for (const { id } of events) {
        const delivery = byEvent.get(id);
        expect(delivery, `delivery of ${id} to /${name}`).toBeDefined();
        if (name === 'ok') expect(delivery?.status).toBe('succeeded');
        else {
          expect(delivery?.status).toBe('failed');
          expect(delivery?.attempts).toHaveLength(3);
        }
      }
    }
    const seen = new Set<string>();
    for (const r of receiver.arrivals) {
      const key = `${r.path} ${r.eventId} ${r.attempt}`;
      expect(seen.has(key), `attempt made twice: ${key}`).toBe(false);
      seen.add(key);
    }
  }

  // Every e-mail of the outbox went out, and the SMTP server saw each one exactly once.
  async function expectMailSentOnce() {
    const rows = await ctx.db.kysely
      .selectFrom('emails')
      .select(['status', 'message_id'])
      .execute();
    const sentIds = rows.filter((r) => r.status === 'sent').map((r) => r.message_id);
    const receivedIds = smtp.messages.map((m) => m.messageId);
    expect(new Set(receivedIds).size).toBe(receivedIds.length);
    expect([...receivedIds].sort()).toEqual([...sentIds].sort());
  }

  it('creates on A, sends and signs through B, seals once, delivers and mails once', async () => {
    const email = 'first.signee@example.com';
    const id = await createOn(a, email);
    await call(b, 'POST', `/api/documents/${id}/send-for-signing`, 200);
    await signOn(b, await tokenFor(email));
    const signed = await until(
      'the document to be signed',
      async () => {
        const body = await call<DocumentBody>(a, 'GET', `/api/documents/${id}`, 200);
        return body.document.status === 'signed' ? body : null;
      },
      30_000,
    );
    await expectSealedOnce(id);
    // The sealed file is in the bucket, readable through the process that did not seal it.
    for (const on of [a, b]) {
      const doc = await call<DocumentBody>(on, 'GET', `/api/documents/${id}`, 200);
      const url = new URL(doc.document.downloadUrl);
      const res = await fetch(`${on.baseUrl}${url.pathname}${url.search}`);
      expect(res.status).toBe(200);
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    }
    expect(signed.document.status).toBe('signed');
    await expectEveryEventDeliveredOnce(a, 30_000);
    await expectMailSentOnce();
  }, 90_000);

  it('loses nothing when one process is SIGKILLed mid-way through a batch', async () => {
    const count = 8;
    const emails = Array.from({ length: count }, (_, i) => `batch.${i}@example.com`);
    const ids: string[] = [];
    for (const [i, email] of emails.entries()) {
      const on = i % 2 ? b : a;
      const id = await createOn(on, email, 20);
      await call(on, 'POST', `/api/documents/${id}/send-for-signing`, 200);
      ids.push(id);
    }
    const tokens = await Promise.all(emails.map(tokenFor));
    // Half signed through both, then A dies with seals and webhook attempts in flight.
    await Promise.all(tokens.slice(0, count / 2).map((t, i) => signOn(i % 2 ? b : a, t)));
    await a.kill9();
    for (const t of tokens.slice(count / 2)) await signOn(b, t);
    // A dead process's claims are taken over when their 30 s lease runs out.
    await until(
      'every document to be signed',
      async () => {
        const rows = await ctx.db.kysely
          .selectFrom('documents')
          .select('status')
          .where('id', 'in', ids)
          .execute();
        return rows.every((r) => r.status === 'signed') ? true : null;
      },
      90_000,
    );
    for (const id of ids) {
      await call(b, 'GET', `/api/documents/${id}`, 200);
      await expectSealedOnce(id);
    }
    await expectEveryEventDeliveredOnce(b, 60_000);
    await expectMailSentOnce();
  }, 240_000);
});
