import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../server/src/lib/ids.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { storedFiles } from '../faults/support.js';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
// Row ids are UUID v7 (RFC 9562; docs/architecture.md): version 7, variant 10.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(ENGINES)('quick-create on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(() => ctx.close());

  const counts = async () => ({
    documents: Number(
      (
        await ctx.db.kysely
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    files: storedFiles(ctx.config.dataDir).length,
    emails: Number(
      (
        await ctx.db.kysely
          .selectFrom('emails')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  it('creates a draft with every specified field and sends no invitation', async () => {
    const before = await counts();
    const pdf = makePdf({ pages: 1 });
    const res = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      file: pdf,
      filename: 'NDA 2026.pdf',
    });
    expect(res.status).toBe(201);
    const { message, document, signees, contentType } = res.body;
    expect(typeof message).toBe('string');
    expect(contentType).toBe('application/pdf');
    expect(Object.keys(document).sort()).toEqual(
      [
        'id',
        'tenantId',
        'folderId',
        'name',
        'status',
        'pinned',
        'createdAt',
        'updatedAt',
        'source',
        'userId',
        'signingMethod',
        'signingMessage',
        'signingOrderEnabled',
        'signingGroupsEnabled',
        'reminderCooldownUntil',
        'emailLanguage',
        'file',
        'originalFile',
        'hash',
        'sealMode',
        'sealLevel',
        'sealFailure',
        'templateId',
        'externalId',
        'metadata',
        'expiresAt',
        'cancelReason',
        'reminders',
        'redirectUrl',
        'completedAt',
        'downloadUrl',
      ].sort(),
    );
    expect(document).toMatchObject({
      tenantId,
      folderId: null,
      name: 'NDA 2026',
      status: 'draft',
      pinned: null,
      source: 'uploaded',
      userId: owner.id,
      signingMethod: 'email',
      signingMessage: null,
      signingOrderEnabled: null,
      signingGroupsEnabled: false,
      reminderCooldownUntil: null,
      emailLanguage: 'en',
      originalFile: 'NDA 2026.pdf',
      hash: null,
    });
    expect(document.id).toMatch(UUID);
    expect(document.createdAt).toMatch(ISO_MS);
    expect(document.updatedAt).toMatch(ISO_MS);
    // documents/<shard: the id's last two hex digits>/<id>.original.pdf
    expect(document.file).toBe(`documents/${document.id.slice(-2)}/${document.id}.original.pdf`);
    expect(document.downloadUrl).toMatch(/^http:\/\/localhost:3000\/api\/files\//);
    expect(signees).toHaveLength(2);
    for (const s of signees) {
      expect(s).toMatchObject({
        documentId: document.id,
        status: 'pending',
        userId: owner.id,
        signingOrder: null,
        signingGroupId: null,
        signedAt: null,
      });
      expect(s.id).toMatch(UUID);
      expect(s.createdAt).toMatch(ISO_MS);
    }
    expect(signees.map((s: { email: string }) => s.email)).toEqual([
      'alice@example.com',
      'bob@example.com',
    ]);
    // Ids sort in the order they were made: the document's (at upload), then its signees'.
    const ids = [document.id, ...signees.map((s: { id: string }) => s.id)];
    expect([...ids].sort()).toEqual(ids);
    const after = await counts();
    expect(after.emails).toBe(before.emails);
    expect(after.documents).toBe(before.documents + 1);

    const got = await api(ctx, owner.apiKey, 'GET', `/api/documents/${document.id}`);
    expect(got.status).toBe(200);
    expect(got.body.document).toEqual({ ...document, downloadUrl: got.body.document.downloadUrl });
    expect(got.body.signees).toEqual(signees);
    const url = new URL(got.body.document.downloadUrl);
    const download = await fetch(`${ctx.baseUrl}${url.pathname}${url.search}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it('makes row ids that sort in the order they were made, within a millisecond too', () => {
    const ids = Array.from({ length: 2000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(UUID);
  });

  it('accepts multi-page PDFs and the optional parts', async () => {
    const res = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      file: makePdf({ pages: 12 }),
      signees: [
        { email: 'a@example.com', name: 'A', signingOrder: 1 },
        { email: 'b@example.com', name: 'B', signingOrder: 2, signingGroupId: 'legal' },
      ],
      extra: {
        name: 'Lease',
        signingMessage: 'Please sign by Friday.',
        signingOrderEnabled: 'true',
        signingGroupsEnabled: 'true',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.document).toMatchObject({
      name: 'Lease',
      signingMessage: 'Please sign by Friday.',
      signingOrderEnabled: true,
      signingGroupsEnabled: true,
    });
    expect(res.body.signees[1]).toMatchObject({ signingOrder: 2, signingGroupId: 'legal' });
  });

  it('refuses files that are not PDFs with 415 and leaves nothing behind', async () => {
    const before = await counts();
    // Damaged PDFs are not among them: test/corpus/damaged.test.ts.
    // The detail says what the file is instead, so the sender knows what to upload.
    const cases: Array<[string, Buffer, string]> = [
      [
        'renamed text',
        Buffer.from('just some text, not a PDF at all '.repeat(20)),
        'it is plain text.',
      ],
      [
        'renamed PNG',
        Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(200)]),
        'it is a PNG image.',
      ],
      [
        'saved web page',
        Buffer.from('<!DOCTYPE html><html><body>' + 'contract '.repeat(20) + '</body></html>'),
        'it is an HTML page.',
      ],
      ['empty file', Buffer.alloc(0), 'it is an empty file.'],
    ];
    for (const [label, file, detail] of cases) {
      const res = await quickCreate(ctx, owner.apiKey, { tenantId, file, filename: 'x.pdf' });
      expect(res.status, label).toBe(415);
      expect(res.body.detail, label).toContain(detail);
      expect(res.body.code).toBe('unsupported_media_type');
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    expect(await counts()).toEqual(before);
  });

  it('checks a cross-reference table far from the end of the file by reading it back', async () => {
    // 2 000 pages: the xref table (20 bytes per object) starts over 64 KiB before the end, past
    // the bytes kept while streaming, so the check reads that part of the stored file.
    const big = makePdf({ pages: 2000 });
    const offset = Number(/startxref\s+(\d+)/.exec(big.subarray(-100).toString('latin1'))![1]);
    expect(big.length - offset).toBeGreaterThan(64 * 1024);
    const ok = await quickCreate(ctx, owner.apiKey, { tenantId, file: big });
    expect(ok.status).toBe(201);

    // A table the check cannot find there is left to the lenient parser, which rebuilds it.
    const broken = Buffer.from(big);
    broken.write('oops', offset, 'latin1');
    const repaired = await quickCreate(ctx, owner.apiKey, { tenantId, file: broken });
    expect(repaired.status).toBe(201);
    const noise = Buffer.concat([big.subarray(0, 1024), Buffer.alloc(200_000, 0x41)]);
    const before = await counts();
    const bad = await quickCreate(ctx, owner.apiKey, { tenantId, file: noise });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('pdf_unreadable');
    expect(await counts()).toEqual(before);
  });

  it('answers 422 with errors[] for bad or missing parts and stores nothing', async () => {
    const before = await counts();
    const many = Array.from({ length: 101 }, (_, i) => ({
      email: `s${i}@example.com`,
      name: `S${i}`,
    }));
    const cases: Array<[Parameters<typeof quickCreate>[2], string[]]> = [
      [{ tenantId: null }, ['tenantId']],
      [{ tenantId: 'not-a-uuid' }, ['tenantId']],
      [{ tenantId, signees: null }, ['signees']],
      [{ tenantId, signees: '[{"email":' }, ['signees']],
      [{ tenantId, signees: [] }, ['signees']],
      [{ tenantId, signees: many }, ['signees']],
      [{ tenantId, signees: [{ email: 'nope', name: 'X' }] }, ['signees.0.email']],
      [{ tenantId, signees: [{ email: 'x@example.com', name: '  ' }] }, ['signees.0.name']],
      [
        {
          tenantId,
          signees: [
            { email: 'Same@Example.com', name: 'One' },
            { email: 'same@example.com', name: 'Two' },
          ],
        },
        ['signees.1.email'],
      ],
      [{ tenantId, file: null }, ['file']],
      [{ tenantId, extra: { signingOrderEnabled: 'yes' } }, ['signingOrderEnabled']],
    ];
    for (const [parts, paths] of cases) {
      const res = await quickCreate(ctx, owner.apiKey, parts);
      expect(res.status, JSON.stringify(parts.signees ?? parts)).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    }
    // Two files.
    const form = new FormData();
    form.append('tenantId', tenantId);
    form.append('signees', JSON.stringify([{ email: 'a@example.com', name: 'A' }]));
    form.append('file', new Blob([new Uint8Array(makePdf())]), 'a.pdf');
    form.append('file', new Blob([new Uint8Array(makePdf())]), 'b.pdf');
    const two = await fetch(`${ctx.baseUrl}/api/documents/quick-create`, {
      method: 'POST',
      headers: { 'x-api-key': owner.apiKey },
      body: form,
    });
    expect(two.status, await two.clone().text()).toBe(422);
    // JSON instead of multipart.
    const json = await api(ctx, owner.apiKey, 'POST', '/api/documents/quick-create', { tenantId });
    expect(json.status).toBe(415);
    expect(await counts()).toEqual(before);
  });

  it('answers 413 before reading when Content-Length is 50 MiB or more', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${ctx.baseUrl}/api/documents/quick-create`, {
        method: 'POST',
        headers: {
          'x-api-key': owner.apiKey,
          'content-type': 'multipart/form-data; boundary=xyz',
          'content-length': String(60 * 1024 * 1024),
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('--xyz\r\n'); // a few bytes; the answer must not wait for the other 60 MiB
    });
    expect(status).toBe(413);
  });

  it("answers Node's fetch a clean 413 for a 51 MiB upload, and the connection serves again", async () => {
    const before = await counts();
    const form = new FormData();
    form.append('tenantId', tenantId);
    form.append('signees', JSON.stringify([{ email: 'a@example.com', name: 'A' }]));
    form.append('file', new Blob([new Uint8Array(51 * 1024 * 1024)]), 'big.pdf');
    // Sent at a network's pace (1 MiB every 5 ms) with its Content-Length, so the server
    // answers long before the body is through. undici sends the whole body before it reads
    // the answer: a connection closed early makes fetch reject ("fetch failed", EPIPE).
    const encoded = new Response(form);
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    let offset = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (offset >= bytes.length) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 5));
        controller.enqueue(bytes.subarray(offset, offset + 1024 * 1024));
        offset += 1024 * 1024;
      },
    });
    const res = await fetch(`${ctx.baseUrl}/api/documents/quick-create`, {
      method: 'POST',
      headers: {
        'x-api-key': owner.apiKey,
        'content-type': encoded.headers.get('content-type')!,
        'content-length': String(bytes.length),
      },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await res.json()).code).toBe('payload_too_large');
    const after = await fetch(`${ctx.baseUrl}/api/documents?tenantId=${tenantId}`, {
      headers: { 'x-api-key': owner.apiKey },
    });
    expect(after.status).toBe(200);
    expect(await counts()).toEqual(before);
  });

  it('lets a client that sends the whole body first read the 413 (lingering close)', async () => {
    // Like Python's requests: write all 60 MiB at a network's pace, then read the answer.
    // Closing the connection right after the 413 would fail these writes (EPIPE, ECONNRESET).
    const result = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      const req = httpRequest(`${ctx.baseUrl}/api/documents/quick-create`, {
        method: 'POST',
        headers: {
          'x-api-key': owner.apiKey,
          'content-type': 'multipart/form-data; boundary=xyz',
          'content-length': String(60 * 1024 * 1024),
        },
      });
      let status = 0;
      let sent = 0;
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        res.resume();
        res.on('end', () => {
          if (sent === 60) resolve({ status, sent });
        });
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(1024 * 1024, 0x41);
      const writeNext = () => {
        if (sent === 60) {
          req.end();
          if (status) resolve({ status, sent });
          return;
        }
        sent += 1;
        req.write(chunk, () => setTimeout(writeNext, 10));
      };
      writeNext();
    });
    expect(result).toEqual({ status: 413, sent: 60 });
  });

  it('stops a streamed upload without Content-Length at 50 MiB with 413', async () => {
    const before = await counts();
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    let sent = 0;
    const boundary = 'b0undary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="tenantId"\r\n\r\n${tenantId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
    );
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        if (sent >= 60) {
          controller.close();
          return;
        }
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${ctx.baseUrl}/api/documents/quick-create`, {
      method: 'POST',
      headers: {
        'x-api-key': owner.apiKey,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: 'half',
    } as RequestInit);
    // The server answers as soon as the file passes 50 MiB and reads the rest only to throw
    // it away, so the client can finish sending and read the answer.
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('payload_too_large');
    expect(await counts()).toEqual(before);
  });

  it('accepts a 45 MiB PDF', async () => {
    const big = makePdf({ pages: 2, padBytes: 45 * 1024 * 1024 });
    const res = await quickCreate(ctx, owner.apiKey, { tenantId, file: big, filename: 'big.pdf' });
    expect(res.status).toBe(201);
    const row = await ctx.db.kysely
      .selectFrom('documents')
      .select(['size_bytes', 'original_sha256'])
      .where('id', '=', res.body.document.id)
      .executeTakeFirstOrThrow();
    expect(row.size_bytes).toBe(big.length);
  });

  it('keeps tenants apart and needs a verified e-mail', async () => {
    const stranger = await createUser(ctx);
    const theirs = await quickCreate(ctx, stranger.apiKey, { tenantId });
    expect(theirs.status).toBe(404);
    const unknownTenant = await quickCreate(ctx, owner.apiKey, { tenantId: randomUUID() });
    expect(unknownTenant.status).toBe(404);
    const mine = await quickCreate(ctx, owner.apiKey, { tenantId });
    const peek = await api(ctx, stranger.apiKey, 'GET', `/api/documents/${mine.body.document.id}`);
    expect(peek.status).toBe(404);

    const unverified = await createUser(ctx, { verified: false });
    const res = await quickCreate(ctx, unverified.apiKey, { tenantId });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('email_not_verified');
    const list = await api(ctx, unverified.apiKey, 'GET', `/api/documents?tenantId=${tenantId}`);
    expect(list.status).toBe(403);
    expect(list.body.code).toBe('email_not_verified');
  });

  it('replays a repeated Idempotency-Key and refuses it for another body', async () => {
    const pdf = makePdf({ title: 'idempotent' });
    const key = randomUUID();
    const first = await quickCreate(
      ctx,
      owner.apiKey,
      { tenantId, file: pdf },
      { 'idempotency-key': key },
    );
    const second = await quickCreate(
      ctx,
      owner.apiKey,
      { tenantId, file: pdf },
      { 'idempotency-key': key },
    );
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.document.id).toBe(first.body.document.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const other = await quickCreate(
      ctx,
      owner.apiKey,
      { tenantId, file: makePdf({ title: 'other' }) },
      { 'idempotency-key': key },
    );
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    const rows = await ctx.db.kysely
      .selectFrom('documents')
      .select('id')
      .where(
        'original_sha256',
        '=',
        (
          await ctx.db.kysely
            .selectFrom('documents')
            .select('original_sha256')
            .where('id', '=', first.body.document.id)
            .executeTakeFirstOrThrow()
        ).original_sha256,
      )
      .execute();
    expect(rows).toHaveLength(1);
  });
});
