import { PDF, PdfArray, PdfNumber } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';

/** A PDF whose pages are A4 portrait turned by /Rotate 90, and one cropped to 300 × 200. */
async function rotatedAndCroppedPdf(): Promise<Buffer> {
  const pdf = PDF.create();
  const turned = pdf.addPage({ width: 595, height: 842 });
  turned.dict.set('Rotate', PdfNumber.of(90));
  const cropped = pdf.addPage({ width: 595, height: 842 });
  cropped.dict.set('CropBox', PdfArray.of(...[100, 100, 400, 300].map((n) => PdfNumber.of(n))));
  return Buffer.from(await pdf.save());
}

const signature = (signee: number, page = 1) => ({
  signee,
  type: 'signature',
  page,
  x: 72,
  y: 600,
  width: 180,
  height: 48,
});

describe.each(ENGINES)('fields API on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx, { name: 'Fiona Fields' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
  });
  afterAll(() => ctx.close());

  const create = (fields: unknown, file = makePdf({ pages: 2 }), extra = {}) =>
    quickCreate(ctx, owner.apiKey, {
      tenantId,
      file,
      extra: { fields: typeof fields === 'string' ? fields : JSON.stringify(fields), ...extra },
    });
  const documentCount = async () =>
    Number(
      (
        await ctx.db.kysely
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('tenant_id', '=', tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates fields with quick-create and answers them everywhere', async () => {
    const created = await create([
      signature(0, 2),
      signature(1, 2),
      { signee: 0, type: 'initials', page: 1, x: 500, y: 780, width: 50, height: 30 },
      { signee: 0, type: 'date', page: 2, x: 300, y: 600, width: 100, height: 20 },
      {
        signee: 1,
        type: 'text',
        page: 2,
        x: 72,
        y: 680,
        width: 200,
        height: 20,
        label: 'Job title',
        required: true,
      },
      { signee: 1, type: 'checkbox', page: 1, x: 72, y: 700, width: 12, height: 12, value: true },
      {
        signee: 1,
        type: 'dropdown',
        page: 1,
        x: 100,
        y: 700,
        width: 120,
        height: 20,
        options: ['Monthly', 'Yearly'],
        value: 'Yearly',
      },
      // `required: false` cannot make a signature-like field optional.
      { signee: 1, type: 'name', page: 2, x: 300, y: 700, width: 150, height: 20, required: false },
    ]);
    expect(created.status).toBe(201);
    const [alice, bob] = created.body.signees;
    const fields = created.body.fields;
    expect(fields).toHaveLength(8);
    expect(fields[0]).toMatchObject({
      signeeId: alice.id,
      type: 'signature',
      page: 2,
      x: 72,
      y: 600,
      width: 180,
      height: 48,
      required: true,
      label: null,
      options: null,
      value: null,
      filledAt: null,
    });
    expect(fields[1].signeeId).toBe(bob.id);
    expect(fields[4]).toMatchObject({ type: 'text', label: 'Job title', required: true });
    expect(fields[5]).toMatchObject({ type: 'checkbox', required: false, value: true });
    expect(fields[6]).toMatchObject({ options: ['Monthly', 'Yearly'], value: 'Yearly' });
    expect(fields[7]).toMatchObject({ type: 'name', required: true });

    const id = created.body.document.id;
    const got = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`);
    expect(got.body.fields).toEqual(fields);
    const listed = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/fields`);
    expect(listed.body).toEqual({ fields });
  });

  it('answers no fields for a document created without them', async () => {
    const created = await quickCreate(ctx, owner.apiKey, { tenantId });
    expect(created.status).toBe(201);
    expect(created.body.fields).toEqual([]);
    const got = await api(ctx, owner.apiKey, 'GET', `/api/documents/${created.body.document.id}`);
    expect(got.body.fields).toEqual([]);
  });

  it.each([
    [
      'a page the PDF does not have',
      [signature(0, 3)],
      'fields[0].page',
      /page 3 does not exist \(the document has 2 pages\)/,
    ],
    [
      'a box past the right edge',
      [signature(0), { ...signature(1), x: 500 }],
      'fields[1].width',
      /outside page 1/,
    ],
    [
      'a box past the bottom edge',
      [{ ...signature(0), y: 820 }],
      'fields[0].height',
      /outside page 1/,
    ],
    [
      'an unknown signee',
      [signature(0), signature(2)],
      'fields[1].signee',
      /signee 2 does not exist/,
    ],
    ['an unknown type', [{ ...signature(0), type: 'stamp' }], 'fields[0].type', /must be one of/],
    [
      'a dropdown without options',
      [{ ...signature(0), type: 'dropdown' }],
      'fields[0].options',
      /needs at least one option/,
    ],
    [
      'a value on a signature',
      [{ ...signature(0), value: 'x' }],
      'fields[0].value',
      /^a signature field is filled when signing and takes no value$/,
    ],
    [
      'options on a text field',
      [signature(0), { ...signature(0), type: 'text', options: ['a'] }],
      'fields[1].options',
      /^only dropdown and radio fields take options$/,
    ],
    [
      'a dropdown value that is not an option',
      [signature(0), { ...signature(0), type: 'dropdown', options: ['a', 'b'], value: 'c' }],
      'fields[1].value',
      /^must be one of the options$/,
    ],
    [
      'a checkbox value that is not true or false',
      [signature(0), { ...signature(0), type: 'checkbox', value: 'yes' }],
      'fields[1].value',
      /^a checkbox value is true or false$/,
    ],
    [
      'a text value that is not a string',
      [signature(0), { ...signature(0), type: 'text', value: true }],
      'fields[1].value',
      /^a text value is a string$/,
    ],
    ['a negative place', [{ ...signature(0), x: -5 }], 'fields[0].x', /./],
    ['page 0', [{ ...signature(0), page: 0 }], 'fields[0].page', /count from 1/],
    ['an unknown property', [{ ...signature(0), colour: 'red' }], 'fields[0]', /colour/],
    ['not JSON', '[{', 'fields', /JSON array/],
  ])(
    'refuses %s with 422 pointing at the field, creating nothing',
    async (_, fields, path, message) => {
      const before = await documentCount();
      const res = await create(fields);
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      const error = res.body.errors.find((e: { path: string }) => e.path === path);
      expect(error, JSON.stringify(res.body.errors)).toBeDefined();
      expect(error.message).toMatch(message);
      expect(await documentCount()).toBe(before);
    },
  );

  it("tells every problem of a field at once, each at its property, in zod's words", async () => {
    const res = await create([
      { ...signature(0), type: 'dropdown', x: -5, y: 200_000, width: 0.5, page: 1.5 },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { path: 'fields[0].page', message: 'Invalid input: expected int, received number' },
      { path: 'fields[0].x', message: 'Too small: expected number to be >=0' },
      { path: 'fields[0].y', message: 'Too big: expected number to be <=100000' },
      { path: 'fields[0].width', message: 'must be at least 1 point' },
    ]);
    const dropdown = await create([{ ...signature(0), type: 'dropdown', x: -5 }]);
    expect(dropdown.body.errors).toEqual([
      { path: 'fields[0].x', message: 'Too small: expected number to be >=0' },
      { path: 'fields[0].options', message: 'a dropdown needs at least one option' },
    ]);
  });

  it('places fields on the page as displayed: /Rotate and CropBox honoured', async () => {
    const file = await rotatedAndCroppedPdf();
    // Page 1 shows 842 wide and 595 high; page 2 shows its 300 × 200 crop.
    const fits = await create(
      [
        { ...signature(0), x: 600, y: 500, width: 200, height: 60 },
        { ...signature(1), page: 2, x: 100, y: 100, width: 180, height: 60 },
      ],
      file,
    );
    expect(fits.status).toBe(201);
    const tall = await create([{ ...signature(0), x: 72, y: 560, width: 120, height: 60 }], file);
    expect(tall.status).toBe(422);
    expect(tall.body.errors[0]).toMatchObject({ path: 'fields[0].height' });
    expect(tall.body.errors[0].message).toContain('842 × 595 points');
    const cropped = await create(
      [{ ...signature(1), page: 2, x: 200, y: 20, width: 120, height: 40 }],
      file,
    );
    expect(cropped.status).toBe(422);
    expect(cropped.body.errors[0]).toMatchObject({ path: 'fields[0].width' });
    expect(cropped.body.errors[0].message).toContain('300 × 200 points');
  });

  it('replaces a draft’s fields with PUT, refuses bad ones unchanged, and 409 once sent', async () => {
    const created = await create([signature(0), signature(1)]);
    const id = created.body.document.id;
    const [alice, bob] = created.body.signees;
    const path = `/api/documents/${id}/fields`;
    const put = (fields: unknown[]) => api(ctx, owner.apiKey, 'PUT', path, { fields });
    const replaced = await put([
      { signeeId: bob.id, type: 'signature', page: 2, x: 10, y: 10, width: 150, height: 40 },
      { signeeId: alice.id, type: 'signature', page: 1, x: 10, y: 10, width: 150, height: 40 },
      {
        signeeId: alice.id,
        type: 'text',
        page: 1,
        x: 10,
        y: 60,
        width: 150,
        height: 20,
        label: 'Notes',
      },
    ]);
    expect(replaced.status).toBe(200);
    expect(replaced.body.fields.map((f: { signeeId: string }) => f.signeeId)).toEqual([
      bob.id,
      alice.id,
      alice.id,
    ]);
    const before = (await api(ctx, owner.apiKey, 'GET', path)).body;
    expect(before.fields).toHaveLength(3);
    // A field sent with its id keeps it; an id that is not one of the document's is refused.
    const keep = replaced.body.fields.map((f: Record<string, unknown>) => {
      const { value: _value, filledAt: _filledAt, ...rest } = f;
      return rest;
    });
    const trail = async () =>
      (
        (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/audit-trail`)).body
          .auditTrail as Array<{ action: string }>
      ).map((e) => e.action);
    const updatedAt = async () =>
      (await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`)).body.updatedAt;
    const [trailBefore, updatedBefore] = [await trail(), await updatedAt()];
    expect(trailBefore.filter((a) => a === 'fields changed')).toHaveLength(1);
    const same = await put(keep);
    expect(same.status).toBe(200);
    expect(same.body).toEqual(before);
    // Saving again what was read changes nothing: not the trail, not the document's time.
    expect(await trail()).toEqual(trailBefore);
    expect(await updatedAt()).toBe(updatedBefore);
    const unknownId = await put([{ ...keep[0], id: crypto.randomUUID() }]);
    expect(unknownId.status).toBe(422);
    expect(unknownId.body.errors).toEqual([
      { path: 'fields[0].id', message: 'is not a field of this document' },
    ]);

    const stranger = await put([
      { signeeId: alice.id, type: 'signature', page: 1, x: 10, y: 10, width: 150, height: 40 },
      {
        signeeId: crypto.randomUUID(),
        type: 'signature',
        page: 1,
        x: 10,
        y: 10,
        width: 150,
        height: 40,
      },
    ]);
    expect(stranger.status).toBe(422);
    expect(stranger.body.errors).toEqual([
      { path: 'fields[1].signeeId', message: 'is not a signee of this document' },
    ]);
    const offPage = await put([
      { signeeId: alice.id, type: 'signature', page: 9, x: 10, y: 10, width: 150, height: 40 },
    ]);
    expect(offPage.status).toBe(422);
    expect(offPage.body.errors[0].path).toBe('fields[0].page');
    // The body's own checks name a field as the others do: `fields[1].…`, not `body.fields.1.…`.
    const base = { signeeId: alice.id, type: 'signature', page: 1, x: 10, y: 10 };
    const malformed = await put([
      { ...base, width: 150, height: 40 },
      { ...base, type: 'dropdown', options: [], width: 150, height: 40, colour: 'red' },
      { ...base, type: 'stamp', width: 150, height: 40 },
    ]);
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'fields[1]',
      'fields[1].options',
      'fields[2].type',
    ]);
    expect((await api(ctx, owner.apiKey, 'GET', path)).body).toEqual(before);

    expect(
      (await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
    ).toBe(200);
    const late = await put([]);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('invalid_status');
    expect((await api(ctx, owner.apiKey, 'GET', path)).body).toEqual(before);
  });

  it('refuses to send while a signee has no signature field, changing nothing', async () => {
    const credits = async () =>
      (await api(ctx, owner.apiKey, 'GET', `/api/tenants/${tenantId}/credits`)).body.balance;
    const created = await create([
      signature(0),
      { signee: 1, type: 'initials', page: 1, x: 10, y: 10, width: 50, height: 30 },
    ]);
    const id = created.body.document.id;
    const balance = await credits();
    const res = await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('signature_field_missing');
    expect(res.body.detail).toContain('Bob Example <bob@example.com>');
    expect(res.body.errors).toEqual([
      { path: 'signees.1', message: 'Bob Example <bob@example.com> has no signature field' },
    ]);
    const after = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}`);
    expect(after.body.document.status).toBe('draft');
    expect(await credits()).toBe(balance);
  });

  it('keeps other members’ documents and other tenants’ fields out of reach', async () => {
    const created = await create([signature(0), signature(1)]);
    const stranger = await createUser(ctx, { name: 'Stranger' });
    const path = `/api/documents/${created.body.document.id}/fields`;
    expect((await api(ctx, stranger.apiKey, 'GET', path)).status).toBe(404);
    const put = await api(ctx, stranger.apiKey, 'PUT', path, { fields: [] });
    expect(put.status).toBe(404);
    expect((await api(ctx, owner.apiKey, 'GET', path)).body.fields).toHaveLength(2);
  });
});
