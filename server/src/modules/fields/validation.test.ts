import { describe, expect, it } from 'vitest';
import { hiddenFields, showIfErrors } from './show-if.js';
import { readTagSettings } from './tag-settings.js';
import { numberValueProblem, patternProblem, textValueProblem } from './validation.js';

describe('text validation', () => {
  it('answers a catastrophic pattern on 10,000 characters (linear time, no backtracking)', () => {
    const input = `${'a'.repeat(10_000)}!`;
    expect(textValueProblem(input, { pattern: '(a+)+$' })).toBe('does not have the required form');
    expect(textValueProblem('a'.repeat(10_000), { pattern: '(a+)+$' })).toBeNull();
  });

  it('refuses patterns RE2 does not take, and long ones', () => {
    expect(patternProblem('(a')).toBe(
      'not a valid pattern (RE2 syntax): error parsing regexp: missing closing ): `(a`',
    );
    expect(patternProblem('(a)\\1')).toBe(
      'not a valid pattern (RE2 syntax): error parsing regexp: invalid escape sequence: `\\1`',
    );
    expect(patternProblem('(?=a)')).toMatch(/invalid or unsupported Perl syntax/);
    expect(patternProblem('a'.repeat(501))).toBe('a pattern has at most 500 characters');
    expect(patternProblem('a'.repeat(500))).toBeNull();
  });

  it.each([
    ['email', 'ada@example.com', null],
    ['email', 'ada@example', 'must be an e-mail address'],
    ['phone', '+44 20 7946 0958', null],
    ['phone', '12-34', 'must be a phone number (digits, spaces, + - . ( ); 5 to 20 digits)'],
    ['digits', '0042', null],
    ['digits', '42a', 'must be digits only'],
    ['date', '2026-02-28', null],
    ['date', '2026-02-30', 'must be a date (YYYY-MM-DD)'],
  ] as const)('checks the %s format of %j', (format, value, problem) => {
    expect(textValueProblem(value, { format })).toBe(problem);
  });

  it('checks lengths in characters before the format', () => {
    expect(textValueProblem('Zoë', { minLength: 4 })).toBe('must be at least 4 characters long');
    expect(textValueProblem('Zoë', { maxLength: 3 })).toBeNull();
    expect(textValueProblem('abcd', { maxLength: 3, format: 'digits' })).toBe(
      'must be at most 3 characters long',
    );
  });
});

describe('number values', () => {
  const rules = { min: 1, max: 500, decimals: 0 };
  it.each([
    ['12', null],
    ['12.5', 'must be a whole number'],
    ['0', 'must be at least 1'],
    ['501', 'must be at most 500'],
    ['1e3', 'must be a whole number'],
    ['twelve', 'must be a whole number'],
  ])('checks %j against 1..500, whole', (value, problem) => {
    expect(numberValueProblem(value, rules)).toBe(problem);
  });
  it('counts decimal places', () => {
    const money = { min: null, max: null, decimals: 2 };
    expect(numberValueProblem('-3.25', money)).toBeNull();
    expect(numberValueProblem('3.125', money)).toBe('must have at most 2 decimal places');
  });
});

describe('conditions', () => {
  const f = (id: string, type: string, label: string, extra = {}) => ({
    id,
    type,
    label,
    owner: 'a',
    options: null as string[] | null,
    ...extra,
  });
  it('finds cycles, including one field on itself', () => {
    const fields = [
      f('1', 'checkbox', 'A', { showIf: { field: 'B', equals: true } }),
      f('2', 'checkbox', 'B', { showIf: { field: 'A', equals: true } }),
      f('3', 'checkbox', 'C', { showIf: { field: 'C', equals: false } }),
    ];
    expect(showIfErrors(fields, (x) => x.owner)).toEqual([
      { path: 'fields[0].showIf', message: 'the conditions make a cycle: "A" → "B" → "A"' },
      { path: 'fields[1].showIf', message: 'the conditions make a cycle: "B" → "A" → "B"' },
      { path: 'fields[2].showIf', message: 'the conditions make a cycle: "C" → "C"' },
    ]);
  });
  it('hides a field whose condition looks at a hidden one', () => {
    const fields = [
      f('1', 'radio', 'Plan', { options: ['Basic', 'Pro'] }),
      f('2', 'checkbox', 'Extras', { showIf: { field: 'Plan', equals: 'Pro' } }),
      f('3', 'number', 'Extra seats', { showIf: { field: 'Extras', equals: true } }),
    ];
    const values: Record<string, string | boolean> = { '1': 'Basic', '2': true };
    expect([...hiddenFields(fields, (x) => values[x.id])]).toEqual(['2', '3']);
    values['1'] = 'Pro';
    expect([...hiddenFields(fields, (x) => values[x.id])]).toEqual([]);
  });
});

describe('text tag settings', () => {
  it.each([
    ['radio', 'Plan|Basic|Pro', { label: 'Plan', options: ['Basic', 'Pro'] }],
    ['dropdown', 'Plan | Monthly | Yearly', { label: 'Plan', options: ['Monthly', 'Yearly'] }],
    ['dropdown', 'Plan', { label: 'Plan' }],
    ['number', 'Seats|min=1|max=500|decimals=0', { label: 'Seats', min: 1, max: 500, decimals: 0 }],
    ['text', 'A|B', { label: 'A|B' }],
    [
      'radio',
      'Plan',
      { problem: 'a radio tag lists its options after its label: {{radio:1:Plan|Basic|Pro}}' },
    ],
    ['radio', 'Plan|Solo', { problem: 'a radio needs at least two options' }],
    ['radio', 'Plan|A||B', { problem: 'an option is empty' }],
    ['number', 'Seats|min=5|max=1', { problem: 'min must not be above max' }],
    [
      'number',
      'Seats|step=2',
      { problem: 'unknown number setting "step=2" (min=, max=, decimals=)' },
    ],
    ['number', 'Seats|max=lots', { problem: 'max must be a number, not "lots"' }],
    ['number', 'Seats|decimals=1.5', { problem: 'decimals must be a whole number from 0 to 10' }],
  ])('reads {{%s:1:%s}}', (type, label, expected) => {
    expect(readTagSettings(type, label)).toEqual(expected);
  });
});
