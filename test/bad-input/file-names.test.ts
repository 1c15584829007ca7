import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { storedFiles } from '../faults/support.js';

// Raw bytes, so the file name reaches the server exactly as written (FormData would escape it).
function multipart(tenantId: string, filename: Buffer): { body: Buffer; type: string } {
  const boundary = 'signet-filename-test';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="tenantId"\r\n\r\n${tenantId}\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="signees"\r\n\r\n` +
        `${JSON.stringify([{ email: 'a@example.com', name: 'A' }])}\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="`,
    ),
    filename,
    Buffer.from('"\r\ncontent-type: application/pdf\r\n\r\n'),
    makePdf(),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

const NAMES: Array<[string, Buffer]> = [
  ['unix traversal', Buffer.from('../../etc/passwd.pdf')],
  ['windows traversal', Buffer.from('..\\..\\x.pdf')],
  ['absolute path', Buffer.from('/etc/shadow.pdf')],
  ['NUL byte', Buffer.from('evil\u0000.pdf.exe')],
  ['NUL then traversal', Buffer.from('a.pdf\u0000/../../../../tmp/pwned')],
  ['only dots', Buffer.from('..')],
  ['control characters', Buffer.from('a\u0001\u001f\u007fb.pdf')],
];

describe.each(ENGINES)('file names on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  it.each(NAMES)('stores a %s name as a harmless originalFile, never as a path', async (_, raw) => {
    const { body, type } = multipart(tenantId, raw);
    const res = await fetch(`${ctx.baseUrl}/api/documents/quick-create`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': type },
      body: new Uint8Array(body),
    });
    const json = (await res.json()) as {
      document: { id: string; file: string; originalFile: string; downloadUrl: string };
    };
    expect(res.status, JSON.stringify(json)).toBe(201);
    const { document } = json;
    expect(document.file).toBe(`documents/${document.id.slice(-2)}/${document.id}.original.pdf`);
    expect(document.originalFile).not.toMatch(/[/\\\u0000-\u001f\u007f]/);
    expect(document.originalFile).not.toBe('..');
    expect(document.originalFile.length).toBeGreaterThan(0);
    // Only the document's own key exists in storage, and nothing outside it was written.
    const keys = storedFiles(ctx.config.dataDir)
      .map((f) => f.key)
      .filter((k) => k.includes(document.id));
    expect(keys).toEqual([document.file]);
    expect(readdirSync(path.join(ctx.config.dataDir, 'files'))).toEqual(['documents']);
    expect(existsSync('/tmp/pwned')).toBe(false);

    // The download answers with a header-safe name and the right bytes.
    const u = new URL(document.downloadUrl);
    const file = await fetch(`${ctx.baseUrl}${u.pathname}${u.search}`);
    expect(file.status).toBe(200);
    const disposition = file.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment; filename="[^"\\/\r\n]*"; filename\*=UTF-8''/);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const again = await api(ctx, apiKey, 'GET', `/api/documents/${document.id}`);
    expect(again.body.document.originalFile).toBe(document.originalFile);
  });
});
