import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDF } from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { makePdf } from '../helpers/pdf.js';
import { createTemplate, signatureFields } from '../helpers/templates.js';
import { inkIn, renderPage } from '../helpers/pdf-render.js';
import {
  downloadFile,
  signingCall,
  signingTokenFromMailbox,
  waitForStatus,
} from '../helpers/signing.js';

// Radio and number fields, validated text and conditional fields (decisions §15): every refusal
// when fields are saved and when a signee submits, each message and path pinned, and the seal.

const at = (y: number) => ({ page: 1, x: 72, y, width: 200, height: 18 });
const signature = (signee: number) => ({
  signee,
  type: 'signature',
  page: 1,
  x: 330,
  y: 700,
  width: 180,
  height: 48,
});
const plan = { signee: 0, type: 'radio', label: 'Plan', options: ['Basic', 'Pro'], ...at(100) };

/** A page with text tags written on it, one a line. */
async function taggedPdf(lines: string[]): Promise<Buffer> {
  const pdf = PDF.create();
  const page = pdf.addPage({ width: 595, height: 842 });
  lines.forEach((text, i) => page.drawText(text, { x: 72, y: 700 - i * 40, size: 10 }));
  return Buffer.from(await pdf.save());
}

describe.each(ENGINES)('field rules on %s', (engine) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let tenantId: string;
  let scratch: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { listen: true });
    owner = await createUser(ctx, { name: 'Rita Rules' });
    tenantId = (await createTenant(ctx, owner.apiKey)).id;
    scratch = mkdtempSync(path.join(tmpdir(), 'signet-rules-'));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const create = (fields: unknown[], signees?: unknown) =>
    quickCreate(ctx, owner.apiKey, {
      tenantId,
      file: makePdf({ pages: 1 }),
      signees,
      extra: { fields: JSON.stringify(fields) },
    });

  it.each([
    [
      'a radio without two options',
      [{ ...plan, options: ['Solo'] }],
      [{ path: 'fields[0].options', message: 'a radio needs at least two options' }],
    ],
    [
      'bounds on a text',
      [{ signee: 0, type: 'text', min: 1, ...at(100) }],
      [{ path: 'fields[0].min', message: 'only number fields take min, max and decimals' }],
    ],
    [
      'min above max',
      [{ signee: 0, type: 'number', min: 10, max: 1, ...at(100) }],
      [{ path: 'fields[0].min', message: 'min must not be above max' }],
    ],
    [
      'a prefilled number out of bounds',
      [{ signee: 0, type: 'number', max: 5, value: '6', ...at(100) }],
      [{ path: 'fields[0].value', message: 'must be at most 5' }],
    ],
    [
      'validation on a checkbox',
      [{ signee: 0, type: 'checkbox', validation: { format: 'digits' }, ...at(100) }],
      [{ path: 'fields[0].validation', message: 'only text fields take validation' }],
    ],
    [
      'a pattern RE2 cannot compile',
      [{ signee: 0, type: 'text', validation: { pattern: '(a)\\1' }, ...at(100) }],
      [
        {
          path: 'fields[0].validation.pattern',
          message:
            'not a valid pattern (RE2 syntax): error parsing regexp: invalid escape sequence: `\\1`',
        },
      ],
    ],
    [
      'a pattern over 500 characters',
      [{ signee: 0, type: 'text', validation: { pattern: 'a'.repeat(501) }, ...at(100) }],
      [{ path: 'fields[0].validation.pattern', message: 'a pattern has at most 500 characters' }],
    ],
    [
      'minLength above maxLength',
      [{ signee: 0, type: 'text', validation: { minLength: 5, maxLength: 2 }, ...at(100) }],
      [{ path: 'fields[0].validation.minLength', message: 'must not be above maxLength' }],
    ],
    [
      'a condition on a label nobody has',
      [{ signee: 0, type: 'text', showIf: { field: 'Nope', equals: 'x' }, ...at(100) }],
      [{ path: 'fields[0].showIf.field', message: 'no field is labelled "Nope"' }],
    ],
    [
      "a condition on another signee's field",
      [
        { ...plan, signee: 1 },
        { signee: 0, type: 'text', showIf: { field: 'Plan', equals: 'Pro' }, ...at(140) },
      ],
      [
        {
          path: 'fields[1].showIf.field',
          message:
            '"Plan" is a field of another signee: a condition looks at the same signee\'s fields',
        },
      ],
    ],
    [
      'a condition on a text field',
      [
        { signee: 0, type: 'text', label: 'Job', ...at(100) },
        { signee: 0, type: 'text', showIf: { field: 'Job', equals: 'x' }, ...at(140) },
      ],
      [
        {
          path: 'fields[1].showIf.field',
          message: '"Job" is a text field: a condition looks at a checkbox, radio or dropdown',
        },
      ],
    ],
    [
      'a condition on a value the field cannot hold',
      [plan, { signee: 0, type: 'text', showIf: { field: 'Plan', equals: 'Gold' }, ...at(140) }],
      [
        {
          path: 'fields[1].showIf.equals',
          message: 'must be one of the options of "Plan": Basic, Pro',
        },
      ],
    ],
    [
      'conditions in a cycle',
      [
        {
          signee: 0,
          type: 'checkbox',
          label: 'A',
          showIf: { field: 'B', equals: true },
          ...at(100),
        },
        {
          signee: 0,
          type: 'checkbox',
          label: 'B',
          showIf: { field: 'A', equals: true },
          ...at(140),
        },
      ],
      [
        { path: 'fields[0].showIf', message: 'the conditions make a cycle: "A" → "B" → "A"' },
        { path: 'fields[1].showIf', message: 'the conditions make a cycle: "B" → "A" → "B"' },
      ],
    ],
  ])('refuses %s when saved', async (_, fields, errors) => {
    const created = await create([signature(0), signature(1), ...fields]);
    expect(created.status, JSON.stringify(created.body)).toBe(422);
    const shift = (p: string) =>
      p.replace(/^fields\[(\d+)\]/, (_m, n) => `fields[${Number(n) + 2}]`);
    expect(created.body.errors).toEqual(errors.map((e) => ({ ...e, path: shift(e.path) })));
  });

  it('refuses the same through PUT /api/documents/{id}/fields, and keeps the rules it takes', async () => {
    const created = await create([signature(0)], [{ email: 'ada@example.com', name: 'Ada' }]);
    expect(created.status).toBe(201);
    const id = created.body.document.id;
    const signeeId = created.body.signees[0].id;
    const base = { signeeId, ...at(100) };
    const bad = await api(ctx, owner.apiKey, 'PUT', `/api/documents/${id}/fields`, {
      fields: [
        { ...base, type: 'checkbox', label: 'A', showIf: { field: 'A', equals: true } },
        { ...base, type: 'text', validation: { pattern: '(a' } },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      {
        path: 'fields[1].validation.pattern',
        message: 'not a valid pattern (RE2 syntax): error parsing regexp: missing closing ): `(a`',
      },
    ]);
    const cycle = await api(ctx, owner.apiKey, 'PUT', `/api/documents/${id}/fields`, {
      fields: [{ ...base, type: 'checkbox', label: 'A', showIf: { field: 'A', equals: true } }],
    });
    expect(cycle.body.errors).toEqual([
      { path: 'fields[0].showIf', message: 'the conditions make a cycle: "A" → "A"' },
    ]);
    const good = await api(ctx, owner.apiKey, 'PUT', `/api/documents/${id}/fields`, {
      fields: [
        { ...base, type: 'signature', x: 330, width: 180, height: 48 },
        { ...base, type: 'number', label: 'Seats', min: 1, max: 500, decimals: 0 },
        {
          ...base,
          y: 140,
          type: 'text',
          validation: { format: 'email', maxLength: 80 },
          showIf: { field: 'Plan', equals: 'Pro' },
        },
        { ...base, y: 180, type: 'radio', label: 'Plan', options: ['Basic', 'Pro'] },
      ],
    });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    const listed = await api(ctx, owner.apiKey, 'GET', `/api/documents/${id}/fields`);
    expect(listed.body.fields[1]).toMatchObject({ min: 1, max: 500, decimals: 0, showIf: null });
    expect(listed.body.fields[2]).toMatchObject({
      validation: { format: 'email', maxLength: 80 },
      showIf: { field: 'Plan', equals: 'Pro' },
      min: null,
    });
  });

  it('checks values on submit, hides conditional fields, and draws radio and number in place', async () => {
    // Two links to the same fields: a link takes five sign attempts in a burst.
    const open = async () => {
      const email = `ada${Math.random().toString(36).slice(2, 7)}@ex.io`;
      const created = await create(
        [
          signature(0),
          { ...plan, required: true },
          {
            signee: 0,
            type: 'number',
            label: 'Seats',
            min: 1,
            max: 500,
            decimals: 0,
            required: true,
            ...at(140),
          },
          {
            signee: 0,
            type: 'text',
            label: 'Tax id',
            validation: { pattern: '[A-Z]{2}[0-9]{6}' },
            required: true,
            ...at(180),
          },
          {
            signee: 0,
            type: 'text',
            label: 'Contact',
            validation: { format: 'email' },
            ...at(220),
          },
          {
            signee: 0,
            type: 'text',
            label: 'Company',
            required: true,
            showIf: { field: 'Plan', equals: 'Pro' },
            ...at(260),
          },
          {
            signee: 0,
            type: 'text',
            label: 'Note',
            value: 'PREFILLED HIDDEN NOTE',
            showIf: { field: 'Plan', equals: 'Pro' },
            ...at(300),
          },
        ],
        [{ email, name: 'Ada Lovelace' }],
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.document.id;
      expect(
        (await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`)).status,
      ).toBe(200);
      const token = await signingTokenFromMailbox(ctx, email);
      const view = await signingCall(ctx, token, '');
      const [, planId, seatsId, taxId, contactId, companyId] = view.body.fields.map(
        (f: { id: string }) => f.id,
      );
      expect(view.body.fields[2]).toMatchObject({ type: 'number', min: 1, max: 500, decimals: 0 });
      return { id, token, ids: { planId, seatsId, taxId, contactId, companyId } };
    };
    let link = await open();
    const { planId, seatsId, taxId } = link.ids;
    const sign = (fields: Array<{ id: string; value: string | boolean }>) =>
      signingCall(ctx, link.token, 'sign', {
        consent: true,
        signature: { type: 'typed', text: 'Ada Lovelace' },
        fields,
      });
    const good = [
      { id: planId, value: 'Basic' },
      { id: seatsId, value: '12' },
      { id: taxId, value: 'GB123456' },
    ];
    const refused = async (
      fields: Array<{ id: string; value: string | boolean }>,
      errors: unknown[],
    ) => {
      const res = await sign(fields);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.errors).toEqual(errors);
    };
    await refused(
      [{ id: planId, value: 'Gold' }, ...good.slice(1)],
      [
        { path: 'fields[0].value', message: '"Plan" (radio, page 1) must be one of: Basic, Pro' },
        // A value refused is not kept: the required field is then empty too.
        { path: 'fields', message: '"Plan" (radio, page 1) is required' },
      ],
    );
    await refused(
      [good[0], { id: seatsId, value: '12.5' }, good[2]],
      [
        { path: 'fields[1].value', message: '"Seats" (number, page 1) must be a whole number' },
        { path: 'fields', message: '"Seats" (number, page 1) is required' },
      ],
    );
    await refused(
      [good[0], { id: seatsId, value: '501' }, good[2]],
      [
        { path: 'fields[1].value', message: '"Seats" (number, page 1) must be at most 500' },
        { path: 'fields', message: '"Seats" (number, page 1) is required' },
      ],
    );
    await refused(
      [...good.slice(0, 2), { id: taxId, value: 'GB12345X' }],
      [
        {
          path: 'fields[2].value',
          message: '"Tax id" (text, page 1) does not have the required form',
        },
        { path: 'fields', message: '"Tax id" (text, page 1) is required' },
      ],
    );
    link = await open();
    const second = link.ids;
    const { contactId, companyId } = second;
    good.splice(
      0,
      3,
      { id: second.planId, value: 'Basic' },
      { id: second.seatsId, value: '12' },
      { id: second.taxId, value: 'GB123456' },
    );
    await refused(
      [...good, { id: contactId, value: 'ada at example' }],
      [{ path: 'fields[3].value', message: '"Contact" (text, page 1) must be an e-mail address' }],
    );
    await refused(
      [...good, { id: companyId, value: 'Analytical Engines Ltd' }],
      [
        {
          path: 'fields[3].value',
          message:
            '"Company" (text, page 1) is hidden ("Plan" does not hold "Pro") and takes no value',
        },
      ],
    );
    // Shown once Plan is Pro, and then required.
    await refused(
      [{ id: second.planId, value: 'Pro' }, ...good.slice(1)],
      [{ path: 'fields', message: '"Company" (text, page 1) is required' }],
    );

    const signed = await sign([
      { id: second.planId, value: 'Pro' },
      ...good.slice(1),
      { id: companyId, value: 'Analytical Engines' },
    ]);
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const done = await waitForStatus(ctx, owner.apiKey, link.id, 'signed');
    expect(done.fields.map((f: { value: unknown }) => f.value)).toEqual([
      'Ada Lovelace',
      'Pro',
      '12',
      'GB123456',
      null,
      'Analytical Engines',
      'PREFILLED HIDDEN NOTE',
    ]);
    const file = path.join(scratch, 'sealed.pdf');
    writeFileSync(file, await downloadFile(ctx, done.document.downloadUrl));
    const text = spawnSync('pdftotext', ['-layout', '-f', '1', '-l', '1', file, '-'], {
      encoding: 'utf8',
    }).stdout;
    expect(text).toContain('Pro');
    expect(text).toContain('12');
    expect(text).toContain('GB123456');
    // The radio's round mark is drawn at the left of its box, inside it.
    const page = renderPage(file, 1);
    expect(inkIn(page, { x: 72, y: 100, width: 16, height: 18 })).toBeGreaterThan(0);
  });

  it('does not keep or draw a prefilled value of a field its condition hides', async () => {
    const email = `ben${Math.random().toString(36).slice(2, 7)}@ex.io`;
    const created = await create(
      [
        signature(0),
        plan,
        {
          signee: 0,
          type: 'text',
          label: 'Note',
          value: 'PREFILLED HIDDEN NOTE',
          showIf: { field: 'Plan', equals: 'Pro' },
          ...at(300),
        },
      ],
      [{ email, name: 'Ben Okafor' }],
    );
    const id = created.body.document.id;
    await api(ctx, owner.apiKey, 'POST', `/api/documents/${id}/send-for-signing`);
    const token = await signingTokenFromMailbox(ctx, email);
    const view = await signingCall(ctx, token, '');
    const signed = await signingCall(ctx, token, 'sign', {
      consent: true,
      signature: { type: 'typed', text: 'Ben Okafor' },
      fields: [{ id: view.body.fields[1].id, value: 'Basic' }],
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const done = await waitForStatus(ctx, owner.apiKey, id, 'signed');
    expect(done.fields[2].value).toBeNull();
    const file = path.join(scratch, 'hidden.pdf');
    writeFileSync(file, await downloadFile(ctx, done.document.downloadUrl));
    const text = spawnSync('pdftotext', ['-f', '1', '-l', '1', file, '-'], {
      encoding: 'utf8',
    }).stdout;
    expect(text).toContain('Basic');
    expect(text).not.toContain('PREFILLED');
  });

  it('makes radio and number fields from text tags, and names a tag whose settings do not hold', async () => {
    const create = async (lines: string[]) =>
      quickCreate(ctx, owner.apiKey, {
        tenantId,
        signees: [{ email: 'ada@example.com', name: 'Ada' }],
        file: await taggedPdf(lines),
        extra: { textTags: 'true' },
      });
    const good = await create([
      '{{signature:1}}',
      '{{radio:1:Plan|Basic|Pro!}}',
      '{{number:1:Seats|min=1|max=500|decimals=0}}',
    ]);
    expect(good.status, JSON.stringify(good.body)).toBe(201);
    expect(good.body.fields[1]).toMatchObject({
      type: 'radio',
      label: 'Plan',
      options: ['Basic', 'Pro'],
      required: true,
    });
    expect(good.body.fields[2]).toMatchObject({
      type: 'number',
      label: 'Seats',
      min: 1,
      max: 500,
      decimals: 0,
      required: false,
    });
    const bad = await create(['{{signature:1}}', '{{radio:1:Plan|Solo}}', '{{number:1:N|max=x}}']);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      {
        path: 'textTags',
        message: '{{radio:1:Plan|Solo}} on page 1: a radio needs at least two options',
      },
      {
        path: 'textTags',
        message: '{{number:1:N|max=x}} on page 1: max must be a number, not "x"',
      },
    ]);
  });

  it('keeps rules and conditions through a template, refusing a cycle among its roles', async () => {
    const template = { name: 'Order', roles: [{ name: 'Buyer' }] };
    const cycle = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template,
      fields: signatureFields(1, [
        { role: 0, type: 'checkbox', label: 'A', showIf: { field: 'A', equals: true }, ...at(300) },
      ]),
    });
    expect(cycle.status).toBe(422);
    expect(cycle.body.errors).toEqual([
      { path: 'fields[1].showIf', message: 'the conditions make a cycle: "A" → "A"' },
    ]);
    const made = await createTemplate(ctx, owner.apiKey, {
      tenantId,
      template,
      fields: signatureFields(1, [
        { ...plan, signee: undefined, role: 0, ...at(300) },
        {
          role: 0,
          type: 'number',
          label: 'Seats',
          max: 9,
          showIf: { field: 'Plan', equals: 'Pro' },
          ...at(340),
        },
        { role: 0, type: 'text', validation: { format: 'digits' }, ...at(380) },
      ]),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const doc = await api(
      ctx,
      owner.apiKey,
      'POST',
      `/api/templates/${made.body.template.id}/documents`,
      { signees: [{ role: 0, email: 'ada@example.com', name: 'Ada' }] },
    );
    expect(doc.status, JSON.stringify(doc.body)).toBe(201);
    expect(doc.body.fields.slice(1)).toMatchObject([
      { type: 'radio', options: ['Basic', 'Pro'] },
      { type: 'number', max: 9, showIf: { field: 'Plan', equals: 'Pro' } },
      { type: 'text', validation: { format: 'digits' } },
    ]);
  });
});
