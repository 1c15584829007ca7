import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { PDF, PdfNumber } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../../server/src/i18n/dates.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { inkIn as ink, renderPage as render } from '../helpers/pdf-render.js';
import { signingCall, signingTokenFromMailbox, waitForStatus } from '../helpers/signing.js';

/** A 300 × 100 PNG: white, with a thick dark stroke across its middle (a drawn signature). */
function strokePng(): string {
  const [width, height] = [300, 100];
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 4, 255);
    row[0] = 0;
    for (let x = 20; x < width - 20; x++) {
      if (Math.abs(y - 50 - Math.round(20 * Math.sin(x / 25))) < 6)
        row.fill(0, 1 + x * 4, 4 + x * 4);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

describe.each(ENGINES)('sealing fields on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  let scratch: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx, { name: 'Sam Sender' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    scratch = mkdtempSync(path.join(tmpdir(), 'signet-fields-'));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const save = (bytes: Buffer) => {
    const file = path.join(scratch, `${Math.random().toString(36).slice(2)}.pdf`);
    writeFileSync(file, bytes);
    return file;
  };
  const pdftotext = (file: string, page: number) =>
    spawnSync('pdftotext', ['-layout', '-f', String(page), '-l', String(page), file, '-'], {
      encoding: 'utf8',
    }).stdout;
  const signAndSeal = async (
    file: Buffer,
    fields: unknown[],
    sign: (tokens: string[]) => Promise<void>,
  ) => {
    const emails = ['ada', 'ben'].map((n) => `${n}${Math.random().toString(36).slice(2, 7)}@ex.io`);
    const created = await quickCreate(ctx, owner.apiKey, {
      tenantId,
      file,
      signees: [
        { email: emails[0], name: 'Ada Lovelace' },
        { email: emails[1], name: 'Ben Okafor' },
      ],
      extra: { fields: JSON.stringify(fields) },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.document.id;
    expect(
      (await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(200);
    await sign(await Promise.all(emails.map((e) => signingTokenFromMailbox(ctx, e))));
    const done = await waitForStatus(ctx, owner.apiKey, id, 'signed');
    const url = new URL(done.document.downloadUrl);
    const sealed = Buffer.from(
      await (await fetch(`${ctx.baseUrl}${url.pathname}${url.search}`)).arrayBuffer(),
    );
    return { id, done, created, sealed, file: save(sealed) };
  };

  const box = { signature: { x: 72, y: 600, width: 180, height: 48 } };

  it('draws each value inside its box on the original pages, lists the fields, and seals', async () => {
    const fields = [
      { signee: 0, type: 'signature', page: 2, ...box.signature },
      { signee: 1, type: 'signature', page: 2, x: 330, y: 600, width: 180, height: 48 },
      { signee: 0, type: 'initials', page: 1, x: 500, y: 770, width: 50, height: 30 },
      { signee: 0, type: 'date', page: 2, x: 72, y: 660, width: 160, height: 18 },
      {
        signee: 0,
        type: 'text',
        page: 2,
        x: 72,
        y: 700,
        width: 200,
        height: 18,
        label: 'Job title',
        required: true,
      },
      {
        signee: 0,
        type: 'checkbox',
        page: 1,
        x: 72,
        y: 700,
        width: 14,
        height: 14,
        label: 'I accept',
        required: true,
      },
      {
        signee: 0,
        type: 'checkbox',
        page: 1,
        x: 120,
        y: 700,
        width: 14,
        height: 14,
        label: 'Newsletter',
      },
      {
        signee: 0,
        type: 'dropdown',
        page: 1,
        x: 200,
        y: 700,
        width: 120,
        height: 18,
        options: ['Monthly', 'Yearly'],
      },
      { signee: 1, type: 'name', page: 2, x: 330, y: 660, width: 180, height: 18 },
      {
        signee: 1,
        type: 'text',
        page: 2,
        x: 330,
        y: 700,
        width: 90,
        height: 40,
        label: 'Notes',
        value: 'A rather long remark that has to wrap inside its small box',
      },
    ];
    let fieldIds: string[] = [];
    const { id, file, sealed } = await signAndSeal(
      makePdf({ pages: 2 }),
      fields,
      async ([ada, ben]) => {
        const view = await signingCall(ctx, ada, '');
        expect(view.body.pages).toEqual([
          { width: 595, height: 842 },
          { width: 595, height: 842 },
        ]);
        expect(view.body.fields).toHaveLength(7);
        fieldIds = view.body.fields.map((f: { id: string }) => f.id);
        const [, , , jobTitle, accept, , plan] = fieldIds;
        const base = { consent: true, signature: { type: 'drawn', image: strokePng() } };
        // The server re-checks what the page does: a required field left empty signs nothing.
        const missing = await signingCall(ctx, ada, 'sign', {
          ...base,
          fields: [{ id: jobTitle, value: 'Engineer' }],
        });
        expect(missing.status).toBe(422);
        expect(missing.body.errors).toEqual([
          { path: 'fields', message: '"I accept" (checkbox, page 1) is required to be ticked' },
        ]);
        const wrongOption = await signingCall(ctx, ada, 'sign', {
          ...base,
          fields: [
            { id: jobTitle, value: 'Engineer' },
            { id: accept, value: true },
            { id: plan, value: 'Weekly' },
          ],
        });
        expect(wrongOption.status).toBe(422);
        expect(wrongOption.body.errors[0]).toMatchObject({ path: 'fields[2]' });
        // The body's own checks point at the field the same way.
        const tooLong = await signingCall(ctx, ada, 'sign', {
          ...base,
          fields: [
            { id: accept, value: true },
            { id: jobTitle, value: 'x'.repeat(1001) },
          ],
        });
        expect(tooLong.status).toBe(422);
        expect(tooLong.body.errors.map((e: { path: string }) => e.path)).toEqual([
          'fields[1].value',
        ]);
        const notMine = await signingCall(ctx, ada, 'sign', {
          ...base,
          fields: [{ id: crypto.randomUUID(), value: 'x' }],
        });
        expect(notMine.status).toBe(422);
        expect((await signingCall(ctx, ada, '')).body.signee.status).toBe('pending');

        const signed = await signingCall(ctx, ada, 'sign', {
          ...base,
          fields: [
            { id: jobTitle, value: 'Engineer' },
            { id: accept, value: true },
            { id: plan, value: 'Yearly' },
          ],
        });
        expect(signed.status, JSON.stringify(signed.body)).toBe(200);
        // The second signee sees the first one's filled values, not their own others'.
        const benView = await signingCall(ctx, ben, '');
        expect(benView.body.fields).toHaveLength(3);
        expect(
          benView.body.filledFields.find((f: { type: string }) => f.type === 'text'),
        ).toMatchObject({
          value: 'Engineer',
          signeeName: 'Ada Lovelace',
        });
        expect(
          (
            await signingCall(ctx, ben, 'sign', {
              consent: true,
              signature: { type: 'typed', text: 'Ben Okafor' },
            })
          ).status,
        ).toBe(200);
      },
    );

    // Values read back through the API.
    const stored = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/fields`)).body.fields;
    const today = new Date().toISOString().slice(0, 10);
    expect(stored.map((f: { type: string; value: unknown }) => [f.type, f.value])).toEqual([
      ['signature', 'drawn'],
      ['signature', 'Ben Okafor'],
      ['initials', 'AL'],
      ['date', today],
      ['text', 'Engineer'],
      ['checkbox', true],
      ['checkbox', null],
      ['dropdown', 'Yearly'],
      ['name', 'Ben Okafor'],
      ['text', 'A rather long remark that has to wrap inside its small box'],
    ]);
    expect(
      stored.every(
        (f: { filledAt: string | null; value: unknown }) =>
          (f.value === null) === (f.filledAt === null),
      ),
    ).toBe(true);

    // The seal: valid over the whole file, structurally clean.
    const sig = spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
    expect(sig).toContain('Signature is Valid');
    expect(sig).toContain('Total document signed');
    expect(spawnSync('qpdf', ['--check', file]).status).toBe(0);
    // No separate signature page: the two pages, then the audit certificate.
    const pages = (await PDF.load(sealed)).getPageCount();
    expect(pages).toBe(3);
    expect(pdftotext(file, 3)).toContain('Audit certificate');
    expect(pdftotext(file, 3)).not.toContain('Signatures');

    // Text values on their pages.
    const page2 = pdftotext(file, 2);
    expect(page2).toContain('Engineer');
    expect(page2).toContain('Ben Okafor');
    // The signing date in the one rule of dates.ts (as the signing page showed it).
    expect(page2).toContain(formatDate(today, 'en'));
    expect(page2.replace(/\s+/g, ' ')).toContain('rather long');
    expect(pdftotext(file, 1)).toContain('Yearly');
    // Ink inside each signature box and the ticked checkbox, none in the empty one; nothing
    // spills out of the drawn signature's box.
    const p2 = render(file, 2);
    expect(ink(p2, box.signature)).toBeGreaterThan(0.03);
    expect(ink(p2, { x: 330, y: 600, width: 180, height: 48 })).toBeGreaterThan(0.01);
    expect(ink(p2, { x: 72, y: 560, width: 180, height: 38 })).toBe(0);
    const p1 = render(file, 1);
    expect(ink(p1, { x: 72, y: 700, width: 14, height: 14 })).toBeGreaterThan(0.05);
    expect(ink(p1, { x: 120, y: 700, width: 14, height: 14 })).toBe(0);
    expect(ink(p1, { x: 500, y: 770, width: 50, height: 30 })).toBeGreaterThan(0.01);
    // The certificate lists every field under who filled it, named whole.
    const certificate = pdftotext(file, 3).replace(/\s+/g, ' ');
    expect(certificate).toContain('Fields');
    expect(certificate).toMatch(/Filled by Ada Lovelace <ada\w+@ex\.io>/);
    expect(certificate).toMatch(/Filled by Ben Okafor <ben\w+@ex\.io>/);
    const beforeJobTitle = certificate.slice(0, certificate.indexOf('Job title, p. 2 Engineer'));
    expect(beforeJobTitle.slice(beforeJobTitle.lastIndexOf('Filled by'))).toMatch(
      /^Filled by Ada Lovelace </,
    );
    expect(certificate).toContain('Newsletter, p. 1 (empty)');
  });

  it('places values where a rotated page is displayed', async () => {
    const pdf = PDF.create();
    const page = pdf.addPage({ width: 595, height: 842 });
    page.dict.set('Rotate', PdfNumber.of(90));
    const file = Buffer.from(await pdf.save());
    // Displayed 842 wide and 595 high: a box near the displayed bottom-right corner.
    const signatureBox = { x: 620, y: 500, width: 180, height: 60 };
    const textBox = { x: 40, y: 40, width: 200, height: 20 };
    const { file: sealedFile } = await signAndSeal(
      file,
      [
        { signee: 0, type: 'signature', page: 1, ...signatureBox },
        { signee: 0, type: 'text', page: 1, ...textBox, value: 'Upright words' },
        { signee: 1, type: 'signature', page: 1, x: 300, y: 500, width: 180, height: 60 },
      ],
      async ([ada, ben]) => {
        for (const [token, text] of [
          [ada, 'Ada Lovelace'],
          [ben, 'Ben Okafor'],
        ]) {
          const res = await signingCall(ctx, token, 'sign', {
            consent: true,
            signature: { type: 'typed', text },
          });
          expect(res.status).toBe(200);
        }
      },
    );
    const shown = render(sealedFile, 1);
    expect([shown.width, shown.height]).toEqual([842, 595]);
    expect(ink(shown, signatureBox)).toBeGreaterThan(0.01);
    expect(ink(shown, textBox)).toBeGreaterThan(0.01);
    // pdftotext reads the value upright: it was drawn along the displayed page.
    expect(pdftotext(sealedFile, 1)).toContain('Upright words');
  });
});
