import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';

type Service = { ctx: TestContext; apiKey: string; tenantId: string };

const startField = {
  role: 0,
  type: 'text',
  page: 1,
  x: 72,
  y: 300,
  width: 200,
  height: 20,
  label: 'Start date',
};

/** A template of the tenant with a signature field per role and a `Start date` text field. */
async function makeTemplate(s: Service, roles = ['Client', 'Acme.Inc']) {
  const res = await createTemplate(s.ctx, s.apiKey, {
    tenantId: s.tenantId,
    template: { name: 'Lease', roles: roles.map((name) => ({ name })) },
    fields: signatureFields(roles.length, [startField]),
  });
  expect(res.status).toBe(201);
  return res.body.template.id as string;
}

/** POST …/bulk-sends with a multipart `csv` part. */
async function postCsv(s: Service, templateId: string, csv: string | Buffer, headers = {}) {
  const form = new FormData();
  form.append('csv', new Blob([new Uint8Array(Buffer.from(csv))], { type: 'text/csv' }), 'a.csv');
  const res = await fetch(`${s.ctx.baseUrl}/api/templates/${templateId}/bulk-sends`, {
    method: 'POST',
    headers: { 'x-api-key': s.apiKey, ...headers },
    body: form,
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as any };
}

/** GET a bulk send until it is completed (or still waiting for the mail quota). */
async function settled(s: Service, id: string, until: 'completed' | 'waiting' = 'completed') {
  const end = Date.now() + 30_000;
  for (;;) {
    const res = await api(s.ctx, s.apiKey, 'GET', `/api/bulk-sends/${id}`);
    expect(res.status).toBe(200);
    const b = res.body.bulkSend;
    if (until === 'completed' ? b.status === 'completed' : b.waitingUntil !== null) return b;
    if (Date.now() > end) throw new Error(`bulk send ${id} still ${b.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const rowsOf = async (s: Service, id: string, query = '') =>
  (await api(s.ctx, s.apiKey, 'GET', `/api/bulk-sends/${id}/rows${query}`)).body;

async function balance(s: Service) {
  const t = await s.ctx.db.kysely
    .selectFrom('tenants')
    .select('credit_balance')
    .where('id', '=', s.tenantId)
    .executeTakeFirstOrThrow();
  return t.credit_balance;
}

async function ledger(s: Service) {
  return s.ctx.db.kysely
    .selectFrom('credit_ledger')
    .select(['delta', 'reason', 'reference'])
    .where('tenant_id', '=', s.tenantId)
    .where('reason', 'like', 'bulk-send%')
    .orderBy('created_at')
    .execute();
}

async function bulkCount(s: Service) {
  const [sends, rows] = await Promise.all([
    s.ctx.db.kysely.selectFrom('bulk_sends').select('id').execute(),
    s.ctx.db.kysely.selectFrom('bulk_send_rows').select('row_number').execute(),
  ]);
  return { sends: sends.length, rows: rows.length };
}

const HEADER = 'Client.email,Client.name,Acme.Inc.email,Acme.Inc.name,Start date,externalId';
const line = (i: number) =>
  `c${i}@example.com,Client ${i},s${i}@acme.io,Signer ${i},2027-0${i},x-${i}`;

describe.each(ENGINES)('bulk send on %s', (engine) => {
  let smtp: SmtpSink;
  let s: Service;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    const ctx = await createTestContext(engine, { listen: true, env: { SMTP_URL: smtp.url } });
    const apiKey = (await createUser(ctx, { name: 'Olivia Owner' })).apiKey;
    s = { ctx, apiKey, tenantId: (await createTenant(ctx, apiKey)).id };
  });
  afterAll(async () => {
    await s?.ctx.close();
    await smtp?.close();
  });

  it('sends every good row of a CSV, reports the bad ones by row number', async () => {
    const templateId = await makeTemplate(s);
    const start = await balance(s);
    const csv = [
      HEADER,
      line(1),
      'not-mail,Client 2,s2@acme.io,Signer 2,,',
      line(3),
      'c4@example.com,,s4@acme.io,Signer 4,,',
      line(5),
    ].join('\r\n');
    const res = await postCsv(s, templateId, csv);
    expect(res.status).toBe(202);
    expect(res.body.bulkSend).toMatchObject({ templateId, total: 5, failed: 2, finishedAt: null });
    const id = res.body.bulkSend.id as string;

    const done = await settled(s, id);
    expect(done).toMatchObject({ status: 'completed', total: 5, created: 3, failed: 2 });
    expect(done.finishedAt).not.toBeNull();
    const failed = await rowsOf(s, id, '?status=failed');
    expect(failed.rows).toEqual([
      {
        row: 2,
        status: 'failed',
        error: 'Client.email: must be a valid e-mail address',
        documentId: null,
      },
      { row: 4, status: 'failed', error: 'Client.name: must not be empty', documentId: null },
    ]);
    const all = await rowsOf(s, id, '?limit=2');
    expect(all.rows.map((r: { row: number }) => r.row)).toEqual([1, 2]);
    const next = await rowsOf(s, id, `?limit=2&cursor=${all.nextCursor}`);
    expect(next.rows.map((r: { row: number }) => r.row)).toEqual([3, 4]);

    const created = (await rowsOf(s, id, '?status=created')).rows;
    expect(created.map((r: { row: number }) => r.row)).toEqual([1, 3, 5]);
    for (const [i, r] of created.entries()) {
      const doc = await api(s.ctx, s.apiKey, 'GET', `/api/documents/${r.documentId}`);
      expect(doc.body.document).toMatchObject({
        status: 'in_process',
        source: 'bulk_send',
        templateId,
        externalId: `x-${[1, 3, 5][i]}`,
      });
      expect(doc.body.signees.map((x: { email: string }) => x.email)).toEqual([
        `c${[1, 3, 5][i]}@example.com`,
        `s${[1, 3, 5][i]}@acme.io`,
      ]);
      const start = doc.body.fields.find((f: { label: string }) => f.label === 'Start date');
      expect(start.value).toBe(`2027-0${[1, 3, 5][i]}`);
    }
    // Credits: reserved for the 3 good rows x 2 roles at intake, none refunded.
    expect(await ledger(s)).toEqual([{ delta: -6, reason: 'bulk-send', reference: id }]);
    expect(await balance(s)).toBe(start - 6);
    // Invitations, queued in row order, delivered through SMTP.
    const outbox = await s.ctx.db.kysely
      .selectFrom('emails')
      .select('to_address')
      .where('tenant_id', '=', s.tenantId)
      .where('to_address', 'like', 'c%@example.com')
      .orderBy('id')
      .execute();
    expect(outbox.map((e) => e.to_address)).toEqual([
      'c1@example.com',
      'c3@example.com',
      'c5@example.com',
    ]);
    await smtp.waitFor((m) => JSON.stringify(m.to).includes('s5@acme.io'));
    const listed = await api(s.ctx, s.apiKey, 'GET', `/api/templates/${templateId}/bulk-sends`);
    expect(listed.body.bulkSends.map((b: { id: string }) => b.id)).toEqual([id]);
  });

  it('refuses a bad header, a file of bad rows only and too few credits, creating nothing', async () => {
    const templateId = await makeTemplate(s);
    const before = { bulk: await bulkCount(s), ledger: await ledger(s), balance: await balance(s) };
    const header = await postCsv(
      s,
      templateId,
      'Client.email,Tenant.email,Acme.Inc.email,Acme.Inc.name\nx',
    );
    expect(header.status).toBe(422);
    expect(header.body.errors).toEqual([
      { path: 'csv.header.Tenant.email', message: 'unknown role Tenant' },
      { path: 'csv.header.Client.name', message: 'role Client needs a column Client.name' },
    ]);
    const bad = await postCsv(s, templateId, [HEADER, 'x,,y,,,', 'x,A,y,B,,'].join('\n'));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['rows.1', 'rows.2']);
    // 600 rows x 2 roles is more than the tenant's balance.
    await s.ctx.db.kysely
      .updateTable('tenants')
      .set({ credit_balance: 1199 })
      .where('id', '=', s.tenantId)
      .execute();
    const lines = Array.from({ length: 600 }, (_, i) => line(i));
    const poor = await postCsv(s, templateId, [HEADER, ...lines].join('\n'));
    expect(poor.status).toBe(402);
    expect(poor.body.code).toBe('insufficient_credits');
    await s.ctx.db.kysely
      .updateTable('tenants')
      .set({ credit_balance: before.balance })
      .where('id', '=', s.tenantId)
      .execute();
    expect(await bulkCount(s)).toEqual(before.bulk);
    expect(await ledger(s)).toEqual(before.ledger);
    const big = await postCsv(s, templateId, Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    expect(big.status).toBe(413);
  });

  it('takes JSON rows, and a ";" file with a BOM as Excel saves it', async () => {
    const templateId = await makeTemplate(s);
    const signees = (i: number) => [
      { role: 'client', email: `j${i}@example.com`, name: `J ${i}` },
      { role: 1, email: `k${i}@acme.io`, name: `K ${i}`, language: 'de' },
    ];
    const json = await api(s.ctx, s.apiKey, 'POST', `/api/templates/${templateId}/bulk-sends`, {
      rows: [
        { signees: signees(1), prefill: { 'start date': 'soon' }, externalId: 'j-1' },
        { signees: signees(2).slice(0, 1) },
        { signees: signees(3) },
      ],
    });
    expect(json.status).toBe(202);
    const done = await settled(s, json.body.bulkSend.id);
    expect(done).toMatchObject({ total: 3, created: 2, failed: 1 });
    const failed = await rowsOf(s, done.id, '?status=failed');
    expect(failed.rows).toEqual([
      { row: 2, status: 'failed', error: 'signees: role Acme.Inc has no signee', documentId: null },
    ]);

    const csv =
      '\ufeffClient.email;Client.name;Acme.Inc.email;Acme.Inc.name\r\n' +
      'e1@example.com;"Müller; Anna";e2@acme.io;Bob\r\n';
    const semi = await postCsv(s, templateId, csv);
    expect(semi.status).toBe(202);
    const row = (await rowsOf(s, (await settled(s, semi.body.bulkSend.id)).id)).rows[0];
    const doc = await api(s.ctx, s.apiKey, 'GET', `/api/documents/${row.documentId}`);
    expect(doc.body.signees[0].name).toBe('Müller; Anna');
  });

  it('replays a multipart bulk send with the same Idempotency-Key, and hides it from others', async () => {
    const templateId = await makeTemplate(s);
    const csv = [HEADER, line(7)].join('\n');
    const headers = { 'idempotency-key': `bulk-${engine}` };
    const first = await postCsv(s, templateId, csv, headers);
    const again = await postCsv(s, templateId, csv, headers);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.bulkSend.id).toBe(first.body.bulkSend.id);
    await settled(s, first.body.bulkSend.id);

    const stranger = (await createUser(s.ctx)).apiKey;
    await createTenant(s.ctx, stranger);
    const id = first.body.bulkSend.id as string;
    for (const path of [`/api/bulk-sends/${id}`, `/api/bulk-sends/${id}/rows`]) {
      expect((await api(s.ctx, stranger, 'GET', path)).status).toBe(404);
    }
    const post = await postCsv({ ...s, apiKey: stranger }, templateId, csv);
    expect(post.status).toBe(404);
  });
});

describe.each(ENGINES)('bulk send credits and mail quota on %s', (engine) => {
  let s: Service;
  beforeAll(async () => {
    // No workers until a test starts them: intake alone, then the run.
    const ctx = await createTestContext(engine, {
      listen: true,
      workers: false,
      env: { MAIL_DAILY_LIMIT_PER_TENANT: '5' },
    });
    const apiKey = (await createUser(ctx)).apiKey;
    s = { ctx, apiKey, tenantId: (await createTenant(ctx, apiKey)).id };
  });
  afterAll(() => s?.ctx.close());

  it('reserves credits at intake and refunds those of rows that fail later', async () => {
    const templateId = await makeTemplate(s);
    const start = await balance(s);
    const res = await postCsv(s, templateId, [HEADER, line(1), line(2)].join('\n'));
    expect(res.status).toBe(202);
    const id = res.body.bulkSend.id as string;
    expect(res.body.bulkSend.status).toBe('queued');
    expect(await balance(s)).toBe(start - 4);
    // A row whose input no longer fits (as if the template had changed under it): it fails
    // when its turn comes, and its two credits come back.
    await s.ctx.db.kysely
      .updateTable('bulk_send_rows')
      .set({ input: JSON.stringify({ signees: [], prefill: { Missing: 'x' }, externalId: null }) })
      .where('bulk_send_id', '=', id)
      .where('row_number', '=', 2)
      .execute();
    s.ctx.deps.jobs.start();
    const done = await settled(s, id);
    await s.ctx.deps.jobs.stop();
    expect(done).toMatchObject({ created: 1, failed: 1 });
    const failed = (await rowsOf(s, id, '?status=failed')).rows;
    expect(failed).toEqual([
      expect.objectContaining({ row: 2, error: expect.stringContaining('prefill.Missing') }),
    ]);
    expect(await ledger(s)).toEqual([
      { delta: -4, reason: 'bulk-send', reference: id },
      { delta: 2, reason: 'bulk-send refund', reference: id },
    ]);
    expect(await balance(s)).toBe(start - 2);
  });

  it('creates only the rows whose invitations fit the daily quota, then waits for midnight', async () => {
    const templateId = await makeTemplate(s, ['Client']);
    // The first test queued 2 invitations today: 3 of the quota's 5 are left.
    const csv = [
      'Client.email,Client.name',
      ...[1, 2, 3, 4, 5].map((i) => `q${i}@example.com,Q ${i}`),
    ];
    const res = await postCsv(s, templateId, csv.join('\n'));
    const id = res.body.bulkSend.id as string;
    s.ctx.deps.jobs.start();
    const waiting = await settled(s, id, 'waiting');
    await s.ctx.deps.jobs.stop();
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(waiting).toMatchObject({ status: 'running', created: 3, failed: 0 });
    expect(waiting.waitingUntil).toBe(midnight.toISOString());
    const pending = (await rowsOf(s, id, '?status=pending')).rows;
    expect(pending.map((r: { row: number }) => r.row)).toEqual([4, 5]);
    const job = await s.ctx.db.kysely
      .selectFrom('jobs')
      .select(['run_at', 'status'])
      .where('kind', '=', 'bulk_send.run')
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ run_at: midnight.toISOString(), status: 'pending' });
  });
});
