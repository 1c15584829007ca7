import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { downloadFile, signAsOnlySignee } from '../helpers/signing.js';
import { rowCounts } from '../bad-input/support.js';

// Damage of the kinds real uploads carry (wrong startxref, a missing xref keyword, bytes after
// the end marker, no end marker at all), made by script from a well-formed 3-page PDF: every
// viewer opens these, so they are accepted and sealed from a repaired copy.
const PAGES = 3;
const good = makePdf({ pages: PAGES, title: 'Damaged but openable' });
const text = good.toString('latin1');
const replace = (from: RegExp, to: string) => Buffer.from(text.replace(from, to), 'latin1');

const openable: Array<[string, Buffer]> = [
  ['a startxref pointing at the wrong offset', replace(/startxref\s+\d+/, 'startxref\n17')],
  ['a startxref past the end of the file', replace(/startxref\s+\d+/, 'startxref\n99999999')],
  ['no xref keyword', replace(/\nxref\n/, '\n    \n')],
  ['NUL bytes after %%EOF', Buffer.concat([good, Buffer.alloc(4096)])],
  ['text after %%EOF', Buffer.concat([good, Buffer.from('\r\n<html>mail footer</html>\n')])],
  ['no %%EOF', replace(/%%EOF\s*$/, '')],
  ['no startxref and no %%EOF', replace(/startxref[\s\S]*$/, '')],
  ['junk before the header', Buffer.concat([Buffer.alloc(300, 0x20), good])],
];

describe.each(ENGINES)('damaged but openable PDFs on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
  });
  afterAll(() => ctx.close());

  it.each(openable)('accepts a PDF with %s and seals a repaired copy', async (name, file) => {
    const signee = {
      email: `damaged.${name.replace(/[^a-z0-9]+/gi, '.')}@example.com`,
      name: 'Dee Maged',
    };
    const created = await quickCreate(ctx, apiKey, { tenantId, file, signees: [signee] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The stored original stays byte for byte what was uploaded.
    const id = created.body.document.id as string;
    expect((await downloadFile(ctx, created.body.document.downloadUrl)).equals(file)).toBe(true);
    const { done, sealed } = await signAsOnlySignee(ctx, apiKey, id, signee);
    expect(done.document.sealMode).toBe('normalised');
    const dir = mkdtempSync(path.join(tmpdir(), 'signet-damaged-'));
    try {
      const at = path.join(dir, 'sealed.pdf');
      writeFileSync(at, sealed);
      const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' });
      expect(run('pdfsig', [at]).stdout).toMatch(/Total document signed[\s\S]*Signature is Valid/);
      expect(run('qpdf', ['--check', at]).status).toBe(0);
      // Its pages first, then the signature page and the audit certificate.
      expect(run('pdfinfo', [at]).stdout).toMatch(new RegExp(`Pages:\\s+${PAGES + 2}\\b`));
      expect(run('pdftotext', ['-f', '1', '-l', '1', at, '-']).stdout).toContain(
        'Damaged but openable - page 1',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'a PDF header followed by noise',
      Buffer.concat([
        Buffer.from('%PDF-1.7\n'),
        Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 251)),
      ]),
    ],
    [
      'a PDF without pages',
      Buffer.from(
        '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
      ),
    ],
  ])('refuses %s with 422 pdf_unreadable and keeps nothing', async (_, file) => {
    const before = await rowCounts(ctx);
    const res = await quickCreate(ctx, apiKey, { tenantId, file });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.type).toMatch(/pdf_unreadable$/);
    expect(res.body.detail).toMatch(/^The file starts like a PDF but cannot be opened: .+\./);
    expect(await rowCounts(ctx)).toEqual(before);
  });
});
