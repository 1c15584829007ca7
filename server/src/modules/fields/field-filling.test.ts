import { describe, expect, it } from 'vitest';
import { checkFieldValues, initialsOf, signedFieldValues } from './field-filling.js';
import type { FieldType } from './field-types.js';
import type { FieldRow } from './fields.repo.js';

function field(id: string, type: FieldType, extra: Partial<FieldRow> = {}): FieldRow {
  return {
    id,
    signee_id: 'ada',
    type,
    page: 1,
    x: 0,
    y: 0,
    width: 100,
    height: 20,
    required: false,
    label: null,
    options: null,
    value: null,
    tag_box: null,
    filled_at: null,
    ...extra,
  };
}

describe('checkFieldValues', () => {
  const own = [
    field('sig', 'signature', { required: true }),
    field('title', 'text', { required: true, label: 'Job title' }),
    field('ok', 'checkbox', { required: true }),
    field('news', 'checkbox'),
    field('plan', 'dropdown', { options: ['Monthly', 'Yearly'] }),
    field('note', 'text', { value: 'prefilled' }),
  ];

  it('accepts values of the right kinds and keeps prefilled ones', () => {
    const { values, errors } = checkFieldValues(own, [
      { id: 'title', value: '  Engineer ' },
      { id: 'ok', value: true },
      { id: 'plan', value: 'Yearly' },
    ]);
    expect(errors).toEqual([]);
    expect(Object.fromEntries(values)).toEqual({
      title: 'Engineer',
      ok: true,
      plan: 'Yearly',
      note: 'prefilled',
    });
  });

  it('names each problem: ownership, kind, options, repeats, required', () => {
    const { errors } = checkFieldValues(own, [
      { id: 'someone-else', value: 'x' },
      { id: 'sig', value: 'x' },
      { id: 'ok', value: 'yes' },
      { id: 'plan', value: 'Weekly' },
      { id: 'title', value: '   ' },
      { id: 'title', value: 'Again' },
    ]);
    expect(errors).toEqual([
      { path: 'fields[0]', message: 'is not one of your fields' },
      {
        path: 'fields[1]',
        message: 'a signature field is filled from your signature, not by a value',
      },
      { path: 'fields[2]', message: 'a checkbox value is true or false' },
      { path: 'fields[3]', message: 'must be one of: Monthly, Yearly' },
      { path: 'fields[5]', message: 'repeats a field' },
      { path: 'fields', message: '"Job title" (text, page 1) is required' },
      { path: 'fields', message: '(checkbox, page 1) is required to be ticked' },
    ]);
  });
});

describe('signedFieldValues', () => {
  it('fills marks, date, name and e-mail, and leaves empty optional fields null', () => {
    const own = [
      field('sig', 'signature'),
      field('ini', 'initials'),
      field('date', 'date'),
      field('name', 'name'),
      field('mail', 'email'),
      field('free', 'text'),
    ];
    const filled = signedFieldValues(own, {
      values: new Map([['free', '']]),
      signee: { name: 'Ada Lovelace', email: 'ada@example.com' },
      signature: { type: 'drawn' },
      initials: { type: 'typed', text: 'AL' },
      at: '2026-11-24T23:59:59.000Z',
    });
    expect(filled.map((f) => f.value)).toEqual([
      'drawn',
      'AL',
      '2026-11-24',
      'Ada Lovelace',
      'ada@example.com',
      null,
    ]);
  });
});

describe('initialsOf', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['Zoë Ünal', 'ZÜ'],
    ['jean-luc picard', 'JLP'],
    ['李小龍', '李'],
    ['  ', ''],
    ['A B C D E', 'ABCD'],
  ])('%s → %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });
});
