import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import type { FieldRow } from '../fields/fields.repo.js';
import { parseBulkCsv } from './bulk-csv.js';
import { checkCsvRows, checkJsonRows, type BulkTemplate } from './bulk-rows.js';

function field(
  id: string,
  type: FieldRow['type'],
  label: string | null,
  extra: Partial<FieldRow> = {},
): FieldRow {
  return {
    ...{ id, signee_id: 'r0', type, page: 1, x: 0, y: 0, width: 100, height: 20 },
    ...{ required: false, label, options: null, value: null, tag_box: null, filled_at: null },
    ...extra,
  };
}

const template: BulkTemplate = {
  roles: [
    { id: 'r0', name: 'Client' },
    { id: 'r1', name: 'Acme.Inc' },
  ],
  fields: [
    field('sig0', 'signature', 'Signature'),
    field('start', 'text', 'Start date', { page: 2 }),
    field('agree', 'checkbox', 'Agree'),
    field('plan', 'dropdown', 'Plan', { options: ['Basic', 'Pro'] }),
    field('contact', 'text', 'Contact.email'),
  ],
};

const HEADER = 'Client.email,Client.name,acme.inc.EMAIL,Acme.Inc.name';
const check = async (text: string) =>
  checkCsvRows(template, await parseBulkCsv(Buffer.from(text, 'utf8')));

// The 422 a call throws: its errors.
async function refusal(run: () => unknown) {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError && error.status === 422) return error.errors;
    throw error;
  }
  throw new Error('nothing was refused');
}

describe('checkCsvRows: the header', () => {
  it('reads role columns in any case, split at the last dot, and optional columns', async () => {
    const rows = await check(
      `${HEADER},client.LANGUAGE,EXTERNALID,start DATE,agree,Plan,Contact.email\n` +
        'ann@example.com,Ann,bob@acme.io,Bob,DE,crm-1,2027-01-01,x,Pro,ops@acme.io\n',
    );
    expect(rows).toEqual([
      {
        row: 1,
        error: null,
        input: {
          signees: [
            { roleIndex: 0, email: 'ann@example.com', name: 'Ann', language: 'de' },
            { roleIndex: 1, email: 'bob@acme.io', name: 'Bob', language: null },
          ],
          prefill: {
            'start DATE': '2027-01-01',
            agree: true,
            Plan: 'Pro',
            'Contact.email': 'ops@acme.io',
          },
          externalId: 'crm-1',
        },
      },
    ]);
  });

  it('refuses an unknown role', async () => {
    expect(await refusal(() => check(`${HEADER},Tenant.email\nx`))).toEqual([
      { path: 'csv.header.Tenant.email', message: 'unknown role Tenant' },
    ]);
  });

  it('refuses a role without its e-mail or name column', async () => {
    expect(await refusal(() => check('Client.email,Acme.Inc.email,Acme.Inc.language\nx'))).toEqual([
      { path: 'csv.header.Client.name', message: 'role Client needs a column Client.name' },
      { path: 'csv.header.Acme.Inc.name', message: 'role Acme.Inc needs a column Acme.Inc.name' },
    ]);
  });

  it('refuses a duplicate column, whatever its case', async () => {
    expect(
      await refusal(() => check(`${HEADER},CLIENT.email,Plan,plan ,externalId,ExternalID\nx`)),
    ).toEqual([
      { path: 'csv.header.CLIENT.email', message: 'duplicates column 1 (Client.email)' },
      { path: 'csv.header.plan', message: 'duplicates column 6 (Plan)' },
      { path: 'csv.header.ExternalID', message: 'duplicates column 8 (externalId)' },
    ]);
  });

  it('refuses a column that is neither a role column, externalId nor a label', async () => {
    expect(await refusal(() => check(`${HEADER},Notes,Client.phone\nx`))).toEqual([
      {
        path: 'csv.header.Notes',
        message:
          'neither a role column (<role>.email, <role>.name, <role>.language), externalId nor a field label',
      },
      {
        path: 'csv.header.Client.phone',
        message:
          'neither a role column (<role>.email, <role>.name, <role>.language), externalId nor a field label',
      },
    ]);
  });

  it('refuses a column without a name', async () => {
    expect(await refusal(() => check(`${HEADER},,Plan\nx`))).toEqual([
      { path: 'csv.header', message: 'column 5 has no name' },
    ]);
  });

  it('tells every header problem at once', async () => {
    expect((await refusal(() => check('Tenant.email,Notes\nx')))?.map((e) => e.path)).toEqual([
      'csv.header.Tenant.email',
      'csv.header.Notes',
      'csv.header.Client.email',
      'csv.header.Client.name',
      'csv.header.Acme.Inc.email',
      'csv.header.Acme.Inc.name',
    ]);
  });

  it('refuses a file with a header and no rows', async () => {
    expect(await refusal(() => check(`${HEADER}\n\n`))).toEqual([
      { path: 'csv', message: 'the file has no rows' },
    ]);
  });

  it('reads a `;` file with a BOM and CRLF, as Excel in de/fr saves it', async () => {
    const rows = await check(
      '\ufeffClient.email;Client.name;Acme.Inc.email;Acme.Inc.name;Start date\r\n' +
        'ann@example.com;"Lovelace; Ada";bob@acme.io;"Bob ""The Builder""";1,5\r\n',
    );
    expect(rows[0].input?.signees.map((s) => s.name)).toEqual([
      'Lovelace; Ada',
      'Bob "The Builder"',
    ]);
    expect(rows[0].input?.prefill).toEqual({ 'Start date': '1,5' });
  });
});

describe('checkCsvRows: the rows', () => {
  const rows = (...lines: string[]) =>
    check([`${HEADER},Agree,Plan,externalId`, ...lines].join('\n'));

  it('reports a bad row by its 1-based number and column, and keeps the others', async () => {
    expect(
      (
        await rows(
          'ann@example.com,Ann,bob@acme.io,Bob,,,',
          'not-mail,Ann,bob@acme.io,,maybe,Gold,',
          'ann@example.com,Ann,ANN@example.com,Ann,yes,,',
          `ann@example.com,Ann,bob@acme.io,Bob,no,Basic,${'e'.repeat(256)}`,
        )
      ).map((r) => [r.row, r.error]),
    ).toEqual([
      [1, null],
      [
        2,
        'Client.email: must be a valid e-mail address; Acme.Inc.name: must not be empty; ' +
          'Agree: "Agree" (checkbox field on page 1): a checkbox cell is true, false, yes, no, 1, 0 or x; ' +
          'Plan: "Plan" (dropdown field on page 1): must be one of the options',
      ],
      [3, 'acme.inc.EMAIL: duplicates Client.email'],
      [4, 'externalId: must be at most 255 characters'],
    ]);
  });

  it('gives a valid row its input: empty cells prefill nothing, checkbox words are booleans', async () => {
    const [first, second] = await rows(
      'ann@example.com,Ann,bob@acme.io,Bob,,,',
      'ann@example.com,Ann,bob@acme.io,Bob,NO,Basic, ext-2 ',
    );
    expect(first.input).toMatchObject({ prefill: {}, externalId: null });
    expect(second.input).toMatchObject({
      prefill: { Agree: false, Plan: 'Basic' },
      externalId: 'ext-2',
    });
  });

  it('reports a row with another number of cells, and a cell too long or holding NUL', async () => {
    expect(
      (
        await rows(
          'ann@example.com,Ann,bob@acme.io,Bob,,',
          'ann@example.com,Ann,bob@acme.io,Bob,,,,',
          `ann@example.com,${'A'.repeat(1001)},bob@acme.io,Bob,,,`,
          'ann@example.com,Ann\u0000,bob@acme.io,Bob,,,',
        )
      ).map((r) => r.error),
    ).toEqual([
      'has 6 cells; the header has 7 columns',
      'has 8 cells; the header has 7 columns',
      'Client.name: at most 1000 characters',
      'Client.name: must not contain NUL characters',
    ]);
  });

  it('checks the language column and a prefill column of a field filled when signing', async () => {
    const result = await check(
      `${HEADER},Client.language,Signature\n` + 'ann@example.com,Ann,bob@acme.io,Bob,xx,Ann',
    );
    expect(result[0].error).toBe(
      'Client.language: must be one of en, de, fr, es, nl, pt, it, pl, ja, zh, ko, ar; ' +
        'Signature: "Signature" (signature field on page 1): a signature field is filled when signing and takes no value',
    );
  });

  it('returns every row even when all are bad', async () => {
    const all = await rows('x,,y,,,,', 'x,,y,,,,');
    expect(all.map((r) => r.input)).toEqual([null, null]);
  });

  it('checks 10,000 rows quickly', async () => {
    const lines = Array.from(
      { length: 10_000 },
      (_, i) =>
        `client${i}@example.com,Client ${i},signer${i}@acme.io,Signer ${i},yes,Pro,ext-${i}`,
    );
    const started = performance.now();
    const checked = await rows(...lines);
    const elapsed = performance.now() - started;
    expect(checked).toHaveLength(10_000);
    expect(checked.every((r) => r.error === null)).toBe(true);
    expect(checked[9_999].row).toBe(10_000);
    // Parse and check together; about 0.2 s on the development machine.
    expect(elapsed).toBeLessThan(2000);
  });
});

describe('checkJsonRows', () => {
  const signees = [
    { role: 'client', email: 'ann@example.com', name: 'Ann' },
    { role: 1, email: 'bob@acme.io', name: 'Bob', language: 'nl' },
  ];

  it('checks each row by the same rules', async () => {
    expect(
      checkJsonRows(template, [
        { signees, prefill: { Plan: 'Pro', agree: true }, externalId: 'crm-7' },
        { signees: [signees[0]] },
        { signees: [{ ...signees[0], email: 'nope' }, signees[1]], prefill: { Agree: 'yes' } },
        { signees, prefill: { Missing: 'x' }, externalId: 7 },
      ]),
    ).toEqual([
      {
        row: 1,
        error: null,
        input: {
          signees: [
            { roleIndex: 0, email: 'ann@example.com', name: 'Ann', language: null },
            { roleIndex: 1, email: 'bob@acme.io', name: 'Bob', language: 'nl' },
          ],
          prefill: { Plan: 'Pro', agree: true },
          externalId: 'crm-7',
        },
      },
      { row: 2, input: null, error: 'signees: role Acme.Inc has no signee' },
      {
        row: 3,
        input: null,
        error:
          'signees[0].email: must be a valid e-mail address; ' +
          'prefill.Agree: "Agree" (checkbox field on page 1): a checkbox value is true or false',
      },
      {
        row: 4,
        input: null,
        error: 'prefill.Missing: no field has this label; externalId: must be a string',
      },
    ]);
  });

  it('refuses a row that is not an object or has unknown properties', async () => {
    expect(
      checkJsonRows(template, [
        null,
        [signees],
        'x',
        { signees, metadata: {}, prefil: {} },
        { signees, prefill: [] },
      ]).map((r) => r.error),
    ).toEqual([
      'must be an object {signees, prefill?, externalId?}',
      'must be an object {signees, prefill?, externalId?}',
      'must be an object {signees, prefill?, externalId?}',
      'metadata: not a row property; prefil: not a row property (a row has signees, prefill and externalId)',
      'prefill: must be an object of field label to value',
    ]);
  });

  it('needs 1 to 10,000 rows', async () => {
    expect(await refusal(() => checkJsonRows(template, []))).toEqual([
      { path: 'rows', message: 'at least one row is required' },
    ]);
    expect(
      await refusal(() => checkJsonRows(template, new Array(10_001).fill({ signees }))),
    ).toEqual([{ path: 'rows', message: 'at most 10,000 rows' }]);
  });

  it('checks 10,000 rows quickly', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      signees: [
        { role: 'Client', email: `c${i}@example.com`, name: `C ${i}` },
        { role: 'Acme.Inc', email: `s${i}@acme.io`, name: `S ${i}` },
      ],
      prefill: { Plan: 'Basic', Agree: false },
      externalId: `ext-${i}`,
    }));
    const started = performance.now();
    const checked = checkJsonRows(template, rows);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(checked.filter((r) => r.error !== null)).toEqual([]);
  });
});
