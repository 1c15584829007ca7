import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDF, PdfArray, PdfNumber } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanTextTags } from '../../server/src/modules/fields/text-tags.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signingCall, signingTokenFromMailbox, waitForStatus } from '../helpers/signing.js';

const CORPUS = path.resolve(__dirname, '../../../shared/corpus/files');

/**
 * Page 1 (A4): a signature tag in a sentence, a text tag drawn in two runs (split where
 * extraction puts a space), a checkbox and a date. Page 2: A4 turned by /Rotate 90 with an
 * initials tag. Page 3: cropped to its upper-left 300 × 400 with a name tag.
 */
async function taggedPdf(extra: string[] = []): Promise<Buffer> {
  const pdf = PDF.create();
  const one = pdf.addPage({ width: 595, height: 842 });
  one.drawText('Signed by the tenant: {{signature:1}}', { x: 72, y: 700, size: 12 });
  one.drawText('{{text:2', { x: 72, y: 600, size: 12 });
  one.drawText(':Job title!}}', { x: 118, y: 600, size: 12 });
  one.drawText('{{checkbox:2:I agree!}} {{date:1}}', { x: 72, y: 500, size: 10 });
  extra.forEach((text, i) => one.drawText(text, { x: 72, y: 300 - i * 20, size: 10 }));
  const two = pdf.addPage({ width: 595, height: 842 });
  two.dict.set('Rotate', PdfNumber.of(90));
  two.drawText('{{initials:1}}', { x: 100, y: 100, size: 10 });
  const three = pdf.addPage({ width: 595, height: 842 });
  three.dict.set('CropBox', PdfArray.of(...[0, 442, 300, 842].map((n) => PdfNumber.of(n))));
  three.drawText('{{name:2}}', { x: 50, y: 800, size: 10 });
  return Buffer.from(await pdf.save());
}

describe('text tag scanning', () => {
  it('finds tags with their boxes as displayed, across runs, turns and crops', async () => {
    const scan = await scanTextTags(await taggedPdf(), { signeeCount: 2 });
    expect(scan.problems).toEqual([]);
    expect(scan.pages).toEqual([
      { width: 595, height: 842 },
      { width: 842, height: 595 },
      { width: 300, height: 400 },
    ]);
    const byType = Object.fromEntries(scan.fields.map((f) => [f.type, f]));
    expect(Object.keys(byType).sort()).toEqual(
      ['checkbox', 'date', 'initials', 'name', 'signature', 'text'].sort(),
    );
    // The signature tag starts after "Signed by the tenant: " on the baseline at y = 700.
    const signature = byType.signature;
    expect(signature).toMatchObject({ signee: 0, page: 1, required: true, label: null });
    expect(signature.tagBox.x).toBeGreaterThan(150);
    expect(signature.tagBox.x).toBeLessThan(220);
    expect(signature.tagBox.y).toBeCloseTo(842 - 700 - 12, -0.5);
    expect(signature.tagBox.height).toBeGreaterThan(10);
    // Grown to the type's minimum size, from the tag's top-left.
    expect(signature).toMatchObject({
      x: signature.tagBox.x,
      y: signature.tagBox.y,
      width: 120,
      height: 36,
    });
    const text = byType.text;
    expect(text).toMatchObject({
      signee: 1,
      required: true,
      label: 'Job title',
      tag: '{{text:2 :Job title!}}',
    });
    expect(text.tagBox.x).toBeCloseTo(72, -0.5);
    expect(text.tagBox.x + text.tagBox.width).toBeGreaterThan(170);
    expect(byType.checkbox).toMatchObject({ required: true, label: 'I agree' });
    expect(byType.date).toMatchObject({ signee: 0, required: true });
    // Rotate 90: the point (100, 100) of the page shows at (100, 100) from the top-left.
    const initials = byType.initials;
    expect(initials.page).toBe(2);
    expect(initials.tagBox.x).toBeGreaterThan(80);
    expect(initials.tagBox.x).toBeLessThan(100);
    expect(initials.tagBox.y).toBeGreaterThan(95);
    expect(initials.tagBox.y).toBeLessThan(160);
    // The crop's top-left is (0, 842): the tag drawn at (50, 800) shows about 42 points down.
    expect(byType.name.page).toBe(3);
    expect(byType.name.tagBox.x).toBeCloseTo(50, -0.5);
    expect(byType.name.tagBox.y).toBeGreaterThan(25);
    expect(byType.name.tagBox.y).toBeLessThan(42);
  });

  it('places a tag that shares its text run with other text at its own glyphs', async () => {
    // Wide and narrow letters before or after the tag, in one run each: a box shared out by
    // character count lands points away (the value's white cover then hides the letters before
    // the tag, or leaves part of the tag showing).
    const lines = [
      'WWWWWWWW {{text:1:Wide}}',
      'iiiiiiiiiiiiiiii {{text:1:Narrow}}',
      '{{text:1:Upper}} tail mmmm',
      'Name: {{text:1:Job}}',
    ];
    const pdf = PDF.create();
    const page = pdf.addPage({ width: 595, height: 842 });
    lines.forEach((line, i) => page.drawText(line, { x: 72, y: 700 - i * 40, size: 12 }));
    const bytes = Buffer.from(await pdf.save());
    const dir = mkdtempSync(path.join(tmpdir(), 'tags-bbox-'));
    try {
      writeFileSync(path.join(dir, 'tags.pdf'), bytes);
      const bbox = spawnSync('pdftotext', ['-bbox', path.join(dir, 'tags.pdf'), '-'], {
        encoding: 'utf8',
      }).stdout;
      // poppler's own boxes of the words that are tags (each tag is one word here).
      const words = [
        ...bbox.matchAll(/xMin="([\d.]+)"[^>]*xMax="([\d.]+)"[^>]*>(\{\{[^<]*\}\})</g),
      ];
      expect(words.map((w) => w[3])).toEqual(lines.map((l) => /\{\{.*?\}\}/.exec(l)![0]));
      const scan = await scanTextTags(bytes, { signeeCount: 1 });
      expect(scan.fields.map((f) => f.tag)).toEqual(words.map((w) => w[3]));
      scan.fields.forEach((field, i) => {
        const [xMin, xMax] = [Number(words[i][1]), Number(words[i][2])];
        expect(Math.abs(field.tagBox.x - xMin), field.tag).toBeLessThan(0.5);
        expect(Math.abs(field.tagBox.x + field.tagBox.width - xMax), field.tag).toBeLessThan(0.5);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names each tag that cannot become a field, with its page', async () => {
    const scan = await scanTextTags(
      await taggedPdf(['{{sign:1}}', '{{text}}', '{{text:0}}', '{{text:x:Label}}', '{{text:3}}']),
      { signeeCount: 2 },
    );
    expect(scan.problems.map((p) => [p.tag, p.page])).toEqual([
      ['{{sign:1}}', 1],
      ['{{text}}', 1],
      ['{{text:0}}', 1],
      ['{{text:x:Label}}', 1],
      ['{{text:3}}', 1],
    ]);
    expect(scan.problems[0].message).toContain('unknown field type "sign"');
    expect(scan.problems[1].message).toContain('malformed tag');
    expect(scan.problems[2].message).toContain('whole number from 1');
    expect(scan.problems[4].message).toBe('signee 3 does not exist (the document has 2 signees)');
  });

  it('tells a tag broken over two lines or cut by the crop, instead of losing it', async () => {
    const pdf = PDF.create();
    const page = pdf.addPage({ width: 595, height: 842 });
    page.dict.set('CropBox', PdfArray.of(...[0, 0, 300, 842].map((n) => PdfNumber.of(n))));
    page.drawText('{{text:1:Job', { x: 72, y: 700, size: 12 });
    page.drawText('title}}', { x: 72, y: 680, size: 12 });
    page.drawText('{{signature:1}}', { x: 72, y: 600, size: 12 });
    page.drawText('{{initials:1}}', { x: 260, y: 500, size: 12 });
    const scan = await scanTextTags(Buffer.from(await pdf.save()), { signeeCount: 1 });
    expect(scan.fields.map((f) => f.tag)).toEqual(['{{signature:1}}']);
    expect(scan.problems).toHaveLength(2);
    expect(scan.problems[0]).toMatchObject({ tag: '{{text:1:Job', page: 1 });
    expect(scan.problems[1].tag).toMatch(/^\{\{in/);
    for (const problem of scan.problems) expect(problem.message).toContain('no }} after it');
  });

  it('scans tags over many pages', async () => {
    const pdf = PDF.create();
    for (let i = 0; i < 60; i++) {
      const page = pdf.addPage({ width: 612, height: 792 });
      page.drawText(`Page ${i + 1} {{initials:${(i % 3) + 1}}}`, { x: 72, y: 72, size: 11 });
    }
    const scan = await scanTextTags(await pdf.save(), {});
    expect(scan.fields).toHaveLength(60);
    expect(scan.fields.map((f) => f.page)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(new Set(scan.fields.map((f) => f.signee))).toEqual(new Set([0, 1, 2]));
  });

  it.skipIf(!existsSync(CORPUS))(
    'reads every real PDF of the corpus without tags',
    async () => {
      for (const name of readdirSync(CORPUS)) {
        const bytes = readFileSync(path.join(CORPUS, name));
        const outcome = await scanTextTags(bytes, {}).then(
          (scan) => ({ fields: scan.fields.length, problems: scan.problems.length }),
          (err: Error) => ({ error: err.message }),
        );
        // Files that need a password or are not PDFs reject; the rest have no tags.
        if ('error' in outcome) expect(outcome.error, name).toBeTruthy();
        else expect(outcome, name).toEqual({ fields: 0, problems: 0 });
      }
    },
    120_000,
  );
});

/** Gray render of page 1 at 72 dpi: one pixel per point of the page as displayed. */
function render(file: string) {
  const out = `${file}-render`;
  spawnSync('pdftoppm', ['-r', '72', '-gray', '-f', '1', '-l', '1', '-singlefile', file, out]);
  const pgm = readFileSync(`${out}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.toString('latin1', 0, 40))!;
  return { width: Number(header[1]), pixels: pgm.subarray(header[0].length) };
}

/** Share of dark pixels in a box measured from the top-left, in points. */
function ink(
  render: { width: number; pixels: Buffer },
  box: { x: number; y: number; width: number; height: number },
) {
  let dark = 0;
  let all = 0;
  for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y++) {
    for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x++) {
      all++;
      if (render.pixels[y * render.width + x] < 160) dark++;
    }
  }
  return dark / Math.max(1, all);
}

/** A field as the API answers it, as `PUT …/fields` takes it back (keeping its id and tag). */
function asInput(f: Record<string, unknown>) {
  const { id, signeeId, type, page, x, y, width, height, required, label } = f;
  return { id, signeeId, type, page, x, y, width, height, required, label };
}

describe.each(ENGINES)('text tags through the API on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  let scratch: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx, { name: 'Tina Tags' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    scratch = mkdtempSync(path.join(tmpdir(), 'signet-tags-'));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  const emails = () =>
    ['ada', 'ben'].map((n) => `${n}${Math.random().toString(36).slice(2, 7)}@ex.io`);
  const create = (file: Buffer, signees = emails()) =>
    quickCreate(ctx, owner.apiKey, {
      tenantId,
      file,
      signees: signees.map((email, i) => ({ email, name: ['Ada Lovelace', 'Ben Okafor'][i] })),
      extra: { textTags: 'true' },
    });
  const documents = async () =>
    Number(
      (
        await ctx.db.kysely
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('tenant_id', '=', tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('turns tags into fields with quick-create, and covers them with the values', async () => {
    const addresses = emails();
    const created = await create(await taggedPdf(), addresses);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [ada, ben] = created.body.signees;
    const fields = created.body.fields as Array<Record<string, unknown>>;
    expect(fields).toHaveLength(6);
    expect(fields.find((f) => f.type === 'text')).toMatchObject({
      signeeId: ben.id,
      label: 'Job title',
      required: true,
      page: 1,
    });
    expect(fields.find((f) => f.type === 'signature')).toMatchObject({ signeeId: ada.id });
    const id = created.body.document.id;
    expect(
      (await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(422);
    // Ben has no signature field: the tags asked for none. Add one, then send.
    const all = (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/fields`)).body.fields;
    const put = await api(ctx, owner.apiKey, 'PUT', `/api/documents/${id}/fields`, {
      fields: [
        ...all.map(asInput),
        { signeeId: ben.id, type: 'signature', page: 1, x: 330, y: 400, width: 150, height: 40 },
      ],
    });
    expect(put.status).toBe(200);
    // Fields that keep their id keep their text tag (and their id).
    expect(put.body.fields.slice(0, all.length).map((f: { id: string }) => f.id)).toEqual(
      all.map((f: { id: string }) => f.id),
    );
    expect(
      (await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(200);
    const [tAda, tBen] = await Promise.all(addresses.map((e) => signingTokenFromMailbox(ctx, e)));
    const sign = async (
      token: string,
      text: string,
      values: Array<{ id: string; value: unknown }> = [],
    ) => {
      const res = await signingCall(ctx, token, 'sign', {
        consent: true,
        signature: { type: 'typed', text },
        fields: values,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await sign(tAda, 'Ada Lovelace');
    const benFields = (await signingCall(ctx, tBen, '')).body.fields as Array<{
      id: string;
      type: string;
    }>;
    await sign(tBen, 'Ben Okafor', [
      { id: benFields.find((f) => f.type === 'text')!.id, value: 'Chief Engineer' },
      { id: benFields.find((f) => f.type === 'checkbox')!.id, value: true },
    ]);
    const done = await waitForStatus(ctx, owner.apiKey, id, 'signed');
    const url = new URL(done.document.downloadUrl);
    const sealed = Buffer.from(
      await (await fetch(`${ctx.baseUrl}${url.pathname}${url.search}`)).arrayBuffer(),
    );
    const file = path.join(scratch, `${id}.pdf`);
    writeFileSync(file, sealed);
    expect(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout).toContain(
      'Total document signed',
    );
    const page1 = spawnSync('pdftotext', ['-f', '1', '-l', '1', file, '-'], {
      encoding: 'utf8',
    }).stdout;
    expect(page1).toContain('Chief Engineer');
    expect(page1).toContain('Ada Lovelace');
    // The value covers its tag: the checkbox tag's words are painted over and only the
    // (smaller) check mark is drawn there.
    const original = path.join(scratch, `${id}-original.pdf`);
    writeFileSync(original, await taggedPdf());
    const scan = await scanTextTags(await taggedPdf(), {});
    const tagBox = scan.fields.find((f) => f.type === 'checkbox')!.tagBox;
    const before = ink(render(original), tagBox);
    const after = ink(render(file), tagBox);
    expect(before).toBeGreaterThan(0.05);
    expect(after).toBeLessThan(before * 0.5);
  });

  it('refuses to send a dropdown tag until it has options, changing nothing', async () => {
    const pdf = PDF.create();
    const page = pdf.addPage({ width: 595, height: 842 });
    page.drawText('Plan: {{dropdown:1:Plan!}}', { x: 72, y: 700, size: 12 });
    page.drawText('{{signature:1}}   {{signature:2}}', { x: 72, y: 500, size: 12 });
    const created = await create(Buffer.from(await pdf.save()));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.document.id;
    const fields = created.body.fields as Array<Record<string, unknown>>;
    const dropdown = fields.findIndex((f) => f.type === 'dropdown');
    expect(fields[dropdown]).toMatchObject({ options: null, required: true, label: 'Plan' });
    const send = () => api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const refused = await send();
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body.errors).toEqual([
      { path: `fields[${dropdown}].options`, message: 'a dropdown needs at least one option' },
    ]);
    expect(refused.body.detail).toContain('PUT');
    const still = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`);
    expect(still.body.document.status).toBe('draft');
    expect(still.body.signees.every((s: { invitedAt: unknown }) => s.invitedAt === null)).toBe(
      true,
    );
    const put = await api(ctx, owner.apiKey, 'PUT', `/api/documents/${id}/fields`, {
      fields: fields.map((f, i) => ({
        ...asInput(f),
        ...(i === dropdown ? { options: ['Monthly', 'Yearly'] } : {}),
      })),
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await send()).status).toBe(200);
  });

  it('refuses malformed tags and signees out of range with 422 naming tag and page, creating nothing', async () => {
    const before = await documents();
    const res = await create(await taggedPdf(['{{stamp:1}}', '{{text:3:Extra}}']));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        path: 'textTags',
        message: expect.stringMatching(/^\{\{stamp:1\}\} on page 1: unknown field type "stamp"/),
      },
      {
        path: 'textTags',
        message: '{{text:3:Extra}} on page 1: signee 3 does not exist (the document has 2 signees)',
      },
    ]);
    expect(res.body.detail).toContain('and 1 more');
    expect(await documents()).toBe(before);
  });

  it('previews the tags of a file without creating anything', async () => {
    const before = await documents();
    const preview = async (file: Buffer, signees?: string) => {
      const form = new FormData();
      if (signees !== undefined) form.append('signees', signees);
      form.append(
        'file',
        new Blob([new Uint8Array(file)], { type: 'application/pdf' }),
        'tags.pdf',
      );
      const res = await fetch(`${ctx.baseUrl}/api/text-tags/preview`, {
        method: 'POST',
        headers: { 'x-api-key': owner.apiKey },
        body: form,
      });
      return { status: res.status, body: await res.json() };
    };
    const ok = await preview(await taggedPdf(['{{text:3}}']), '2');
    expect(ok.status).toBe(200);
    expect(ok.body.fields).toHaveLength(6);
    expect(ok.body.fields[0]).toMatchObject({
      tag: '{{signature:1}}',
      signee: 0,
      type: 'signature',
      page: 1,
    });
    expect(ok.body.problems).toEqual([
      {
        tag: '{{text:3}}',
        page: 1,
        message: 'signee 3 does not exist (the document has 2 signees)',
      },
    ]);
    expect(ok.body.pages).toHaveLength(3);
    // Without a signee count, any signee number is taken.
    expect((await preview(await taggedPdf(['{{text:3}}']))).body.problems).toEqual([]);
    expect((await preview(Buffer.from('not a pdf at all'))).status).toBe(415);
    expect((await preview(await taggedPdf(), 'two')).status).toBe(422);
    const anonymous = await fetch(`${ctx.baseUrl}/api/text-tags/preview`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(await documents()).toBe(before);
  });
});
