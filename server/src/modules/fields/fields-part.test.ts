import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_TYPES } from './field-types.js';
import { fieldsPart } from './fields.schemas.js';

// fieldsPart takes most parts by a compiled check (ajv) and leaves the rest to zod: whichever
// way a part goes, the answer must be zod's own (its `schema`), to the issue.
const zodOf = { signee: fieldsPart.signee.schema, role: fieldsPart.role.schema };

// Strings that zod trims or measures differently from a compiled check, among ordinary ones.
const text = fc.constantFrom(
  'Pro',
  ' Plan',
  'Plan ',
  '',
  ' ',
  'a'.repeat(200),
  'a'.repeat(201),
  '😀'.repeat(100),
  '😀'.repeat(101),
  'Zoë',
);
const label = fc.constantFrom('Plan', 'Seats', 'Zoë', 'a'.repeat(200));

// A field that holds, of any type: the bounds of its numbers, the options of a radio or a
// dropdown, a number's rules, a text's validation, a condition and a value where they fit.
const validField = (participant: 'signee' | 'role') =>
  fc
    .record({
      [participant]: fc.integer({ min: 0, max: 1 }),
      type: fc.constantFrom(...FIELD_TYPES),
      page: fc.integer({ min: 1, max: 3 }),
      x: fc.double({ min: 0, max: 400, noNaN: true }),
      y: fc.integer({ min: 0, max: 700 }),
      width: fc.constantFrom(1, 120, 100_000),
      height: fc.constantFrom(1, 14.5, 40),
      required: fc.option(fc.boolean(), { nil: undefined }),
      label: fc.option(fc.option(label), { nil: undefined }),
      showIf: fc.option(fc.record({ field: label, equals: fc.oneof(label, fc.boolean()) }), {
        nil: undefined,
      }),
    })
    .chain((base) => {
      const extra: Record<string, fc.Arbitrary<unknown>> = {
        radio: fc.record({
          options: fc.constant(['Basic', 'Pro']),
          value: fc.constantFrom('Pro', null),
        }),
        dropdown: fc.record({ options: fc.constant(['Monthly']) }),
        number: fc.record({
          min: fc.option(fc.integer({ min: -5, max: 5 })),
          max: fc.constantFrom(10, 1e12, null),
          decimals: fc.constantFrom(0, 2, 10, null),
          value: fc.constantFrom('7', null),
        }),
        text: fc.record({
          validation: fc.constantFrom(
            null,
            { format: 'phone' },
            { pattern: '[A-Z]{2}[0-9]+', maxLength: 12 },
            { minLength: 0, maxLength: 1000 },
          ),
          value: fc.constantFrom('', 'x', null),
        }),
        checkbox: fc.record({ value: fc.option(fc.boolean()) }),
      };
      return (extra[base.type as string] ?? fc.constant({})).map((more) => ({
        ...base,
        ...(more as object),
      }));
    })
    .map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)));

// Edge values, each of a kind zod or the rules may refuse (or, for strings, trim).
const edges: Record<string, fc.Arbitrary<unknown>> = {
  signee: fc.constantFrom(-1, 1.5, 2 ** 60, '0', 2),
  role: fc.constantFrom(-1, 1.5, 2 ** 60, '0', 2),
  type: fc.constantFrom('stamp', 'radio', 'number', 'text'),
  page: fc.constantFrom(0, 1.5, 100_000, 100_001, '1'),
  x: fc.constantFrom(-0.1, 100_000, 100_001, null),
  width: fc.constantFrom(0, 0.5, 1e9),
  required: fc.constantFrom('yes', null),
  label: fc.oneof(text, fc.constantFrom(null, 3)),
  options: fc.oneof(fc.array(text, { maxLength: 3 }), fc.constantFrom(null, 'A', [])),
  value: fc.oneof(text, fc.constantFrom(true, null, 1)),
  min: fc.constantFrom(null, 2e12, 9, '1'),
  max: fc.constantFrom(null, -9, 1.5),
  decimals: fc.constantFrom(null, -1, 11, 1.5),
  validation: fc.constantFrom(
    null,
    { format: 'fax' },
    { pattern: '' },
    { pattern: '(' },
    { minLength: 5, maxLength: 2 },
    { maxLength: 1.5 },
    { extra: true },
  ),
  showIf: fc.oneof(
    fc.record({ field: text, equals: fc.oneof(text, fc.boolean()) }),
    fc.constantFrom(
      null,
      { field: 'Plan', equals: 3 },
      { field: 'Plan' },
      { field: 'Plan', equals: 'x', also: 1 },
    ),
  ),
  stamp: fc.constant(true),
};

// A field that holds, or one changed at one key: an edge value, or the key taken away.
const field = (participant: 'signee' | 'role') =>
  fc.oneof(
    validField(participant),
    fc
      .tuple(validField(participant), fc.constantFrom(...Object.keys(edges)), fc.boolean())
      .chain(([f, key, drop]) =>
        drop
          ? fc.constant(Object.fromEntries(Object.entries(f).filter(([k]) => k !== key)))
          : edges[key].map((v) => ({ ...f, [key]: v })),
      ),
  );

describe.each(['signee', 'role'] as const)('fieldsPart.%s', (participant) => {
  const check = (fields: unknown[]) => {
    const answer = fieldsPart[participant](structuredClone(fields));
    const expected = zodOf[participant].safeParse(fields);
    expect(answer.success).toBe(expected.success);
    if (expected.success) expect(answer.data).toEqual(expected.data);
    else expect(answer.error!.issues).toEqual(expected.error.issues);
  };
  it("answers as zod does, for parts that hold and parts that don't", () => {
    fc.assert(fc.property(fc.array(field(participant), { maxLength: 4 }), check), {
      numRuns: 3000,
    });
  });

  it('takes a valid part as it is, without zod', () => {
    const fields = [
      { [participant]: 0, type: 'radio', label: 'Plan', options: ['Basic', 'Pro'], page: 1 },
      { [participant]: 1, type: 'text', showIf: { field: 'Plan', equals: 'Pro' }, page: 2 },
      { [participant]: 1, type: 'number', min: 1, max: 9, decimals: 0, page: 1 },
    ].map((f, i) => ({ ...f, x: 10, y: 10 + i * 50, width: 100, height: 20 }));
    const json = structuredClone(fields);
    // The compiled check's yes: the very input, where zod would answer a copy.
    expect(fieldsPart[participant](json).data).toBe(json);
    // A string zod trims goes to zod when it has spaces to trim: a label, an option, a condition.
    const changes = [
      (f: typeof fields) => (f[0].label = ' Plan'),
      (f: typeof fields) => (f[0].options = ['Basic ', 'Pro']),
      (f: typeof fields) => (f[1].showIf = { field: 'Plan ', equals: 'Pro' }),
    ];
    for (const change of changes) {
      const other = structuredClone(fields);
      change(other);
      const answer = fieldsPart[participant](other);
      expect(answer.data).not.toBe(other);
      expect(answer.data).toEqual(zodOf[participant].parse(other));
    }
  });
});
