import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfFilename } from '../../server/src/modules/documents/after-signing.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { signAsOnlySignee } from '../helpers/signing.js';

// A PDF that starts like a Windows program: `MZ` and a DOS header before `%PDF-`.
function polyglot() {
  const dosHeader = Buffer.alloc(64);
  dosHeader.write('MZ', 0, 'latin1');
  return Buffer.concat([dosHeader, makePdf()]);
}

describe.each(ENGINES)('download names on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
  });
  afterAll(() => ctx.close());

  it('serves an MZ polyglot uploaded as invoice.exe as invoice.pdf, application/pdf, nosniff', async () => {
    const owner = await createUser(ctx);
    const tenantId = (await createTenant(ctx, owner.apiKey)).id;
    const signee = { email: `names.${engine}@example.com`, name: 'Nina Names' };
    const made = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      signees: [signee],
      file: polyglot(),
      filename: 'invoice.exe',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // The uploaded name is kept as written; only what a download is saved as changes.
    expect(made.body.document.originalFile).toBe('invoice.exe');
    const check = async (downloadUrl: string, name: string) => {
      const url = new URL(downloadUrl);
      const res = await ctx.app.inject({ url: `${url.pathname}${url.search}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${name}"; filename*=UTF-8''${name}`,
      );
    };
    await check(made.body.document.downloadUrl, 'invoice.pdf');
    const { done } = await signAsOnlySignee(ctx, owner.apiKey, made.body.document.id, signee);
    await check(done.document.downloadUrl, 'invoice-signed.pdf');
  });
});

describe('pdfFilename', () => {
  it('ends every name in .pdf, keeping the stem', () => {
    expect(pdfFilename('invoice.exe')).toBe('invoice.pdf');
    expect(pdfFilename('report.PDF')).toBe('report.PDF');
    expect(pdfFilename('scan')).toBe('scan.pdf');
    expect(pdfFilename('archive.tar.gz')).toBe('archive.tar.pdf');
    expect(pdfFilename('.exe')).toBe('document.pdf');
    expect(pdfFilename('Vertrag März.docx')).toBe('Vertrag März.pdf');
  });
});
