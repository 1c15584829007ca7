import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDF, PdfArray, PdfDict, PdfName, PdfNumber, PdfString } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findActiveContent } from '../../server/src/modules/sealing/active-content.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingCall, signingTokenFromMailbox, waitForStatus } from '../helpers/signing.js';

const action = (type: string, extra: Record<string, PdfDict | PdfString | PdfName> = {}) =>
  PdfDict.of({ S: PdfName.of(type), ...extra });
const rect = () => PdfArray.of(...[72, 700, 200, 720].map((n) => PdfNumber.of(n)));

/**
 * A one-page PDF with what a hostile sender could hide in it: an open action and a
 * document-level script, a page trigger that launches a program, a link that runs a script
 * and one that submits the form elsewhere, an attached file and a file annotation; and what
 * must stay: a link to a web address.
 */
async function activePdf(): Promise<Uint8Array> {
  const pdf = PDF.create();
  const page = pdf.addPage({ width: 595, height: 842 });
  page.drawText('Contract with surprises', { x: 72, y: 760, size: 18 });
  const catalog = pdf.getCatalog();
  catalog.set('OpenAction', action('JavaScript', { JS: PdfString.fromString('app.alert(1)') }));
  pdf.attachments.add('payload.exe', new Uint8Array([77, 90, 0, 0]), {
    mimeType: 'application/octet-stream',
  });
  const names = catalog.getDict('Names', (ref) => pdf.getObject(ref))!;
  names.set(
    'JavaScript',
    PdfDict.of({
      Names: PdfArray.of(
        PdfString.fromString('init'),
        action('JavaScript', { JS: PdfString.fromString('this.print()') }),
      ),
    }),
  );
  page.dict.set('AA', PdfDict.of({ O: action('Launch', { F: PdfString.fromString('calc.exe') }) }));
  const annotation = (entries: Record<string, PdfDict | PdfArray | PdfName | PdfString>) =>
    pdf.register(PdfDict.of({ Type: PdfName.of('Annot'), Rect: rect(), ...entries }));
  page.dict.set(
    'Annots',
    PdfArray.of(
      annotation({
        Subtype: PdfName.of('Link'),
        A: action('URI', { URI: PdfString.fromString('https://example.com/terms') }),
      }),
      annotation({
        Subtype: PdfName.of('Link'),
        A: action('JavaScript', {
          JS: PdfString.fromString('app.launchURL("x")'),
          Next: action('SubmitForm', { F: PdfString.fromString('https://evil.example') }),
        }),
      }),
      annotation({
        Subtype: PdfName.of('FileAttachment'),
        FS: PdfDict.of({ Type: PdfName.of('Filespec'), F: PdfString.fromString('a.txt') }),
      }),
    ),
  );
  return pdf.save();
}

describe.each(ENGINES)('active content on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  let scratch: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx, { name: 'Sam Sender' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    scratch = mkdtempSync(path.join(tmpdir(), 'signet-active-'));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const verify = async (bytes: Uint8Array) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'check.pdf');
    const res = await fetch(`${ctx.baseUrl}/api/verify`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    return res.json();
  };
  const tool = (cmd: string, args: string[], bytes: Uint8Array) => {
    const file = path.join(scratch, `${cmd}-${Math.random().toString(36).slice(2)}.pdf`);
    writeFileSync(file, bytes);
    return spawnSync(cmd, [...args, file, ...(cmd === 'pdftotext' ? ['-'] : [])], {
      encoding: 'utf8',
    });
  };

  it('reports JavaScript, launch and submit actions and embedded files in /api/verify', async () => {
    const original = await activePdf();
    const report = await verify(original);
    expect(report).toMatchObject({
      status: 'unknown',
      activeContent: ['embedded_files', 'form_submission', 'javascript', 'launch'],
    });
    expect(report.detail).toContain(
      'It contains embedded files, form submission actions, JavaScript and launch actions',
    );
    const plain = await verify(
      await (async () => {
        const pdf = PDF.create();
        pdf.addPage();
        return pdf.save();
      })(),
    );
    expect(plain.activeContent).toEqual([]);
    expect(plain.detail).not.toContain('contains');
    // A file that is not a PDF cannot be examined.
    expect((await verify(new TextEncoder().encode('hello'))).activeContent).toBeNull();
  });

  it('removes it from the sealed copy, keeps web links, and says so on the audit certificate', async () => {
    const email = `ana${Math.random().toString(36).slice(2, 7)}@ex.io`;
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      file: Buffer.from(await activePdf()),
      signees: [{ email, name: 'Ana Active' }],
    });
    expect(created.status).toBe(201);
    const id = created.body.document.id;
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const token = await signingTokenFromMailbox(ctx, email);
    const signed = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Ana Active' },
    });
    expect(signed.status).toBe(200);
    const done = await waitForStatus(ctx, owner.apiKey, id, 'signed');
    const url = new URL(done.document.downloadUrl);
    const sealed = new Uint8Array(
      await (await fetch(`${ctx.baseUrl}${url.pathname}${url.search}`)).arrayBuffer(),
    );

    // The raw scan finds one embedded file, the seal's own evidence.json; verification vouches
    // for it (the seal's revision added it and the seal covers it).
    expect(await findActiveContent(sealed)).toEqual(['embedded_files']);
    const report = await verify(sealed);
    expect(report).toMatchObject({ status: 'sealed', activeContent: [], documentId: id });
    const sig = tool('pdfsig', [], sealed);
    expect(sig.stdout).toContain('Signature is Valid');
    expect(sig.stdout).toContain('Total document signed');
    expect(tool('qpdf', ['--check'], sealed).status).toBe(0);

    // What stays: the page's text and the link to a web address.
    const loaded = await PDF.load(sealed);
    const annots = loaded.getPage(0)!.dict.getArray('Annots', (ref) => loaded.getObject(ref))!;
    const kept = annots
      .toArray()
      .map((entry) => (loaded.getObject(entry as never) ?? entry) as PdfDict)
      .map((annot) => annot.getDict('A', (ref) => loaded.getObject(ref))?.getName('S')?.value);
    expect(kept).toEqual(['URI', undefined]);
    const text = tool('pdftotext', ['-layout'], sealed).stdout;
    expect(text).toContain('Contract with surprises');
    expect(text.replace(/\s+/g, ' ')).toContain(
      'Removed before sealing embedded files, form submission actions, JavaScript and launch actions',
    );
  });
});
