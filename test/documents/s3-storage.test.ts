import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAll } from '../../server/src/modules/storage/storage.js';
import { parseStorageUrl } from '../../server/src/modules/storage/s3-storage.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';

// s3rver ships no type declarations; this is the part of its API used here.
type S3rverInstance = {
  run: () => Promise<{ port: number }>;
  close: () => Promise<void>;
};
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

let s3: S3rverInstance;
let s3Dir: string;
let endpoint: string;
beforeAll(async () => {
  s3Dir = mkdtempSync(path.join(tmpdir(), 'signet-s3rver-'));
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: ENGINES.map((engine) => ({ name: `signet-${engine}` })),
  });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await s3?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

describe('STORAGE_URL parsing', () => {
  it('reads bucket, prefix, endpoint, region, path style and keys', () => {
    const loc = parseStorageUrl(
      's3://my-bucket/signet/prod/?endpoint=http://127.0.0.1:9000&region=eu-west-3&forcePathStyle=true&accessKeyId=AK&secretAccessKey=SK',
    );
    expect(loc).toMatchObject({
      bucket: 'my-bucket',
      prefix: 'signet/prod/',
      client: {
        endpoint: 'http://127.0.0.1:9000',
        region: 'eu-west-3',
        forcePathStyle: true,
        credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' },
      },
    });
    expect(parseStorageUrl('s3://b').prefix).toBe('');
    expect(parseStorageUrl('s3://b').client.credentials).toBeUndefined();
  });

  it('refuses URLs it cannot honour', () => {
    for (const bad of [
      's3://',
      's3://b?forcePathStyle=yes',
      's3://b?accessKeyId=only',
      's3://b?regoin=eu-west-1',
    ]) {
      expect(() => parseStorageUrl(bad), bad).toThrow(/STORAGE_URL/);
    }
  });
});

describe.each(ENGINES)('S3-compatible storage on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    const storageUrl = `s3://signet-${engine}?endpoint=${endpoint}&region=us-east-1&forcePathStyle=true&accessKeyId=S3RVER&secretAccessKey=S3RVER`;
    ctx = await createTestContext(engine, { listen: true, env: { STORAGE_URL: storageUrl } });
    owner = await createUser(ctx);
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(() => ctx.close());

  const storedKeys = async () => (await ctx.deps.storage.list('documents/')).map((o) => o.key);
  const local = (downloadUrl: string) => {
    const u = new URL(downloadUrl);
    return `${ctx.baseUrl}${u.pathname}${u.search}`;
  };

  it('runs quick-create, retrieval, download and delete against the bucket', async () => {
    const pdf = makePdf({ pages: 3, title: `s3 ${engine}` });
    const created = await quickCreate(ctx, owner.apiKey, { tenantId, file: pdf });
    expect(created.status).toBe(201);
    const { id, file } = created.body.document;
    expect(file).toBe(`documents/${id.slice(-2)}/${id}.original.pdf`);
    expect(await storedKeys()).toContain(file);
    expect((await readAll(ctx.deps.storage, file)).equals(pdf)).toBe(true);

    const got = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`);
    expect(got.status).toBe(200);
    const download = await fetch(local(got.body.document.downloadUrl));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);

    const removed = await api(ctx, owner.apiKey, 'DELETE', `/api/documents/${id}`);
    expect(removed.status).toBe(204);
    expect(await storedKeys()).not.toContain(file);
    expect((await fetch(local(got.body.document.downloadUrl))).status).toBe(404);
  });

  it('streams a 45 MiB PDF into the bucket and back out intact', async () => {
    const big = makePdf({ pages: 2, padBytes: 45 * 1024 * 1024 });
    const res = await quickCreate(ctx, owner.apiKey, { tenantId, file: big, filename: 'big.pdf' });
    expect(res.status).toBe(201);
    const row = await ctx.db.kysely
      .selectFrom('documents')
      .select(['size_bytes', 'original_sha256'])
      .where('id', '=', res.body.document.id)
      .executeTakeFirstOrThrow();
    const sha256 = createHash('sha256').update(big).digest('hex');
    expect(row).toEqual({ size_bytes: big.length, original_sha256: sha256 });
    const download = await fetch(local(res.body.document.downloadUrl));
    expect(download.status).toBe(200);
    const hash = createHash('sha256');
    const reader = download.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) hash.update(r.value);
    expect(hash.digest('hex')).toBe(sha256);
  });

  it('refuses a non-PDF (415) or an unreadable PDF (422) and leaves no object behind', async () => {
    const before = await storedKeys();
    const full = makePdf({ pages: 3 });
    for (const [file, code] of [
      [Buffer.from('plain text renamed to look like a PDF '.repeat(20)), 'unsupported_media_type'],
      [Buffer.concat([full.subarray(0, 40), Buffer.alloc(5000, 0x41)]), 'pdf_unreadable'],
    ] as const) {
      const res = await quickCreate(ctx, owner.apiKey, { tenantId, file, filename: 'x.pdf' });
      expect(res.body.code).toBe(code);
    }
    expect(await storedKeys()).toEqual(before);
  });

  it('aborts an upload cut at 50 MiB with 413 and leaves no object behind', async () => {
    const before = await storedKeys();
    const boundary = 'b0undary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="tenantId"\r\n\r\n${tenantId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
    );
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(head),
      pull: (controller) => {
        if (sent++ >= 60) controller.close();
        else controller.enqueue(chunk);
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
    } as RequestInit).catch((err: Error) => err);
    // The server may close the connection right after its 413.
    if (!(res instanceof Error)) expect(res.status).toBe(413);
    expect(await storedKeys()).toEqual(before);
  });

  it('reads byte ranges, reports missing objects and lists by prefix', async () => {
    const { storage } = ctx.deps;
    const bytes = Buffer.from('0123456789abcdefghij');
    const key = `tests/${engine}/range.bin`;
    expect(await storage.put(key, bytes, 'application/octet-stream')).toEqual({
      size: 20,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect((await storage.readRange(key, 0, 3)).toString()).toBe('0123');
    expect((await storage.readRange(key, 10, 14)).toString()).toBe('abcde');
    expect((await storage.readRange(key, 15, 1000)).toString()).toBe('fghij');
    expect((await storage.readRange(key, 5, 4)).length).toBe(0);
    expect((await storage.readRange(key, 50, 60)).length).toBe(0);
    expect((await storage.list(`tests/${engine}/`)).map((o) => o.key)).toEqual([key]);
    await storage.delete(key);
    await storage.delete(key); // a missing object is not an error
    await expect(storage.get(key)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(storage.readRange(key, 0, 3)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await storage.list(`tests/${engine}/`)).toEqual([]);
  });
});
