import { describe, expect, it } from 'vitest';
import type { FieldRow } from '../fields/fields.repo.js';
import { prefillValues } from './prefill.js';

function field(
  id: string,
  type: FieldRow['type'],
  label: string | null,
  extra: Partial<FieldRow> = {},
): FieldRow {
  return {
    id,
    signee_id: 'role-0',
    type,
    page: 1,
    x: 10,
    y: 10,
    width: 100,
    height: 20,
    required: false,
    label,
    options: null,
    value: null,
    tag_box: null,
    filled_at: null,
    ...extra,
  };
}

const fields = [
  field('start-1', 'text', 'Start date', { page: 2 }),
  field('start-2', 'text', ' start DATE ', { page: 3 }),
  field('agree', 'checkbox', 'Agree'),
  field('plan', 'dropdown', 'Plan', { options: ['Basic', 'Pro'] }),
  field('sig', 'signature', 'Signature'),
  field('when', 'date', 'Signed on'),
  field('unlabelled', 'text', null),
];

const entries = (values: Map<string, string | boolean>) => Object.fromEntries(values);

describe('prefillValues', () => {
  it('fills every field whose label matches, ignoring case and surrounding spaces', () => {
    const result = prefillValues(fields, {
      'START date  ': '2027-01-01',
      agree: true,
      Plan: 'Pro',
    });
    expect(result.errors).toEqual([]);
    expect(entries(result.values)).toEqual({
      'start-1': '2027-01-01',
      'start-2': '2027-01-01',
      agree: true,
      plan: 'Pro',
    });
    expect(result.accepted).toEqual({ 'START date  ': '2027-01-01', agree: true, Plan: 'Pro' });
  });

  it('answers nothing for an empty prefill', () => {
    expect(prefillValues(fields, {})).toEqual({ values: new Map(), errors: [], accepted: {} });
  });

  it('refuses a label no field has', () => {
    expect(prefillValues(fields, { 'End date': 'x' }).errors).toEqual([
      { path: 'prefill.End date', message: 'no field has this label' },
    ]);
  });

  it('names the field a value does not fit', () => {
    const { values, errors } = prefillValues(fields, {
      Plan: 'Gold',
      Agree: 'yes',
      'Start date': 5,
    });
    expect(values.size).toBe(0);
    expect(errors).toEqual([
      {
        path: 'prefill.Plan',
        message: '"Plan" (dropdown field on page 1): must be one of the options',
      },
      {
        path: 'prefill.Agree',
        message: '"Agree" (checkbox field on page 1): a checkbox value is true or false',
      },
      {
        path: 'prefill.Start date',
        message: '"Start date" (text field on page 2): a text value is a string',
      },
    ]);
  });

  it('refuses text over 1000 characters and a null value', () => {
    const { errors } = prefillValues(fields, { 'Start date': 'x'.repeat(1001), Plan: null });
    expect(errors).toEqual([
      {
        path: 'prefill.Start date',
        message: '"Start date" (text field on page 2): must be at most 1000 characters',
      },
      {
        path: 'prefill.Plan',
        message: '"Plan" (dropdown field on page 1): a dropdown value is a string',
      },
    ]);
    expect(prefillValues(fields, { 'Start date': 'x'.repeat(1000) }).errors).toEqual([]);
  });

  it('refuses fields filled when signing', () => {
    const { errors } = prefillValues(fields, { Signature: 'Ann', 'Signed on': '2027-01-01' });
    expect(errors.map((e) => e.message)).toEqual([
      '"Signature" (signature field on page 1): a signature field is filled when signing and takes no value',
      '"Signed on" (date field on page 1): a date field is filled when signing and takes no value',
    ]);
  });

  it('fills nothing of a label when one of its fields refuses the value', () => {
    const mixed = [
      field('a', 'text', 'Choice'),
      field('b', 'dropdown', 'choice', { options: ['A'] }),
    ];
    const result = prefillValues(mixed, { Choice: 'B' });
    expect(result.values.size).toBe(0);
    expect(result.errors[0].message).toBe(
      '"choice" (dropdown field on page 1): must be one of the options',
    );
  });

  it('refuses two keys for the same label', () => {
    expect(prefillValues(fields, { Plan: 'Pro', ' plan': 'Basic' }).errors).toEqual([
      { path: 'prefill. plan', message: 'the same label as prefill.Plan' },
    ]);
  });

  it('puts errors under `path`, or under the label alone when it is empty', () => {
    expect(prefillValues(fields, { Nope: 'x' }, { path: 'rows[2].prefill' }).errors[0].path).toBe(
      'rows[2].prefill.Nope',
    );
    expect(prefillValues(fields, { Nope: 'x' }, { path: '' }).errors[0].path).toBe('Nope');
  });

  describe('from a CSV', () => {
    it.each([
      ['true', true],
      ['TRUE', true],
      ['Yes', true],
      ['1', true],
      ['x', true],
      ['X', true],
      ['false', false],
      ['no', false],
      ['NO', false],
      ['0', false],
    ])('reads the checkbox cell %j as %j', (cell, value) => {
      const result = prefillValues(fields, { Agree: cell }, { fromCsv: true });
      expect(result.errors).toEqual([]);
      expect(result.values.get('agree')).toBe(value);
      expect(result.accepted).toEqual({ Agree: value });
    });

    it('refuses another checkbox cell', () => {
      expect(prefillValues(fields, { Agree: 'maybe' }, { fromCsv: true }).errors).toEqual([
        {
          path: 'prefill.Agree',
          message:
            '"Agree" (checkbox field on page 1): a checkbox cell is true, false, yes, no, 1, 0 or x',
        },
      ]);
    });

    it('prefills nothing for an empty cell, whatever the field', () => {
      const result = prefillValues(
        fields,
        { Agree: '', Plan: '', 'Start date': '', Signature: '' },
        { fromCsv: true },
      );
      expect(result).toEqual({ values: new Map(), errors: [], accepted: {} });
    });

    it('keeps text and dropdown cells as strings, checked as JSON values are', () => {
      const result = prefillValues(
        fields,
        { Plan: 'Basic', 'Start date': 'true' },
        { fromCsv: true },
      );
      expect(entries(result.values)).toEqual({
        plan: 'Basic',
        'start-1': 'true',
        'start-2': 'true',
      });
      expect(prefillValues(fields, { Plan: 'basic' }, { fromCsv: true }).errors[0].message).toBe(
        '"Plan" (dropdown field on page 1): must be one of the options',
      );
      expect(
        prefillValues(fields, { Signature: 'x' }, { fromCsv: true }).errors[0].message,
      ).toMatch(/a signature field is filled when signing/);
    });
  });
});
