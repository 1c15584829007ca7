import { z } from 'zod';
import { compiledCheck } from '../../lib/compiled-check.js';
import type { FieldError } from '../../lib/errors.js';
import { ALWAYS_REQUIRED, FIELD_TYPES, type Box, type PageSize } from './field-types.js';
import { checkBody } from './field-rules.js';
import { MAX_DECIMALS, TEXT_FORMATS } from './validation.js';

/** At most this many fields on one document. */
export const MAX_FIELDS = 500;
/** The longest text a `text` field takes. */
export const MAX_TEXT_VALUE = 1000;
const MAX_OPTIONS = 100;
/** A box may reach this far (points) past its page's edge: rounding in the sender's tools. */
const EDGE_TOLERANCE = 0.5;

const timestamp = z.string().describe('ISO 8601 UTC timestamp with milliseconds');

/** The range of one of a field's numbers (an integer if `integer`). */
type NumberRule = { min: number; max: number; integer?: boolean; tooSmall?: string };

const NUMBERS = {
  page: { min: 1, max: 100_000, integer: true, tooSmall: 'pages count from 1' },
  x: { min: 0, max: 100_000 },
  y: { min: 0, max: 100_000 },
  width: { min: 1, max: 100_000, tooSmall: 'must be at least 1 point' },
  height: { min: 1, max: 100_000, tooSmall: 'must be at least 1 point' },
} satisfies Record<string, NumberRule>;
const SIGNEE_POSITION: NumberRule = { min: 0, max: Infinity, integer: true };

/** A number of a field: its range is in the OpenAPI document, and checked by `checkField`. */
function ranged(rule: NumberRule) {
  return z.number().meta({
    minimum: rule.min,
    ...(rule.max < Infinity ? { maximum: rule.max } : {}),
    ...(rule.integer ? { type: 'integer' } : {}),
  });
}

/**
 * Checks a field in one check: its numbers against their ranges, then the rules between its
 * properties (`checkBody`). Zod's `.int().min().max()` on each number would run up to three
 * checks a number, and a `.superRefine` costs more than the rules it runs: a quick-create with
 * twenty fields holds 140 numbers, and zod's checks were most of what validating them cost
 * (issue 24's speed goal: twenty fields took 30 µs with the two checks apart, 23 in one, 6.5
 * once `checkBody` made no closure per field). The issues and messages are zod's own, each at
 * its number, in the order of `rules`; a number that is not an integer stops the field's later
 * checks, the rules too, as zod's `.int()` does; a number out of range does not.
 */
function checkField(rules: Record<string, NumberRule>) {
  const entries = Object.entries(rules);
  return (ctx: { value: unknown; issues: z.core.$ZodRawIssue[] }) => {
    const field = ctx.value as Record<string, number>;
    let aborted = false;
    for (const [key, rule] of entries) {
      const value = field[key];
      if (rule.integer && !Number.isSafeInteger(value)) {
        aborted = true;
        ctx.issues.push({
          code: 'invalid_type',
          expected: 'int',
          format: 'safeint',
          path: [key],
          input: value,
        });
      } else if (value < rule.min) {
        ctx.issues.push({
          code: 'too_small',
          origin: 'number',
          minimum: rule.min,
          inclusive: true,
          path: [key],
          input: value,
          continue: true,
          ...(rule.tooSmall ? { message: rule.tooSmall } : {}),
        });
      } else if (value > rule.max) {
        ctx.issues.push({
          code: 'too_big',
          origin: 'number',
          maximum: rule.max,
          inclusive: true,
          path: [key],
          input: value,
          continue: true,
        });
      }
    }
    if (!aborted) checkBody(ctx.value as FieldBody, ctx.issues);
  };
}

const bound = z.number().min(-1e12).max(1e12);

/** A text field's rules (decisions §15): `pattern` runs on a linear-time RE2 engine. */
const textValidation = z
  .object({
    format: z.enum(TEXT_FORMATS).optional(),
    pattern: z
      .string()
      .min(1)
      .optional()
      .describe('an RE2 regular expression the whole value must match (at most 500 characters)'),
    minLength: z.number().int().min(0).max(MAX_TEXT_VALUE).optional(),
    maxLength: z.number().int().min(1).max(MAX_TEXT_VALUE).optional(),
  })
  .strict();

/** A field shown only while a checkbox, radio or dropdown of the same signee holds `equals`. */
const showIf = z
  .object({
    field: z.string().trim().min(1).max(200).describe('the label of the field looked at'),
    equals: z.union([z.string().max(200), z.boolean()]),
  })
  .strict();

const fieldValue = z.union([z.string().max(MAX_TEXT_VALUE), z.boolean()]);

/** The Field resource (decisions §8). */
export const fieldSchema = z
  .object({
    id: z.uuid(),
    signeeId: z.uuid(),
    type: z.enum(FIELD_TYPES),
    page: z.number().int(),
    x: z.number(),
    y: z.number(),
    width: z.number(),
    height: z.number(),
    required: z.boolean(),
    label: z.string().nullable(),
    options: z.array(z.string()).nullable(),
    value: z.union([z.string(), z.boolean()]).nullable(),
    filledAt: timestamp.nullable(),
    min: z.number().nullable().describe('number fields: the smallest value allowed'),
    max: z.number().nullable().describe('number fields: the largest value allowed'),
    decimals: z
      .number()
      .int()
      .nullable()
      .describe('number fields: the most decimal places a value may have (0 when null)'),
    validation: textValidation.nullable(),
    showIf: showIf.nullable(),
  })
  .meta({ id: 'Field' });

// What every field input has, whoever it belongs to.
const fieldBody = {
  type: z.enum(FIELD_TYPES, { message: `must be one of ${FIELD_TYPES.join(', ')}` }),
  page: ranged(NUMBERS.page),
  x: ranged(NUMBERS.x),
  y: ranged(NUMBERS.y),
  width: ranged(NUMBERS.width),
  height: ranged(NUMBERS.height),
  required: z.boolean().optional(),
  label: z.string().trim().min(1).max(200).nullable().optional(),
  // At least one option, as the OpenAPI document says: checkBody tells a dropdown without any
  // in its own words (zod's `.min(1)` would tell it a second time).
  options: z
    .array(z.string().trim().min(1).max(200))
    .max(MAX_OPTIONS)
    .meta({ minItems: 1 })
    .nullable()
    .optional(),
  value: fieldValue.nullable().optional(),
  min: bound.nullable().optional(),
  max: bound.nullable().optional(),
  decimals: z.number().int().min(0).max(MAX_DECIMALS).nullable().optional(),
  validation: textValidation.nullable().optional(),
  showIf: showIf.nullable().optional(),
};

/** A field input's own properties, as checked. */
export type FieldBody = z.output<z.ZodObject<typeof fieldBody>>;

export { NO_OPTIONS, numberRules, valueProblem } from './field-rules.js';

const quickCreateFieldCheck = checkField({ signee: SIGNEE_POSITION, ...NUMBERS });
const templateCreateFieldCheck = checkField({ role: SIGNEE_POSITION, ...NUMBERS });

/** One element of quick-create's `fields` part: the signee by 0-based position. */
export const quickCreateFieldSchema = z
  .object({ signee: ranged(SIGNEE_POSITION), ...fieldBody })
  .strict()
  .check(quickCreateFieldCheck);

/** One element of `POST /api/templates`' `fields` part: the role by 0-based position. */
export const templateCreateFieldSchema = z
  .object({ role: ranged(SIGNEE_POSITION), ...fieldBody })
  .strict()
  .check(templateCreateFieldCheck);

/**
 * The `fields` part of quick-create (`signee`) or of a new template (`role`), decoded from
 * JSON: the array as zod's safeParse answers it. Most parts are taken by a compiled check
 * (compiledCheck) and the checks it cannot hold: each field's numbers and rules
 * (`checkField`), its trimmed strings already trimmed. Then zod's answer would be the input
 * itself; any other part is zod's to parse, and to word the problems of.
 */
export const fieldsPart = {
  signee: fieldsPartParser(quickCreateFieldSchema, quickCreateFieldCheck),
  role: fieldsPartParser(templateCreateFieldSchema, templateCreateFieldCheck),
};

function fieldsPartParser<T extends z.ZodType>(
  item: T,
  check: (ctx: { value: unknown; issues: z.core.$ZodRawIssue[] }) => void,
) {
  const schema = z.array(item).max(MAX_FIELDS, `at most ${MAX_FIELDS} fields`);
  // Compiled on first use (12–24 ms each), not when the module loads: start-up, and the
  // processes that never read a `fields` part, do not pay for it.
  let passes: ((value: unknown) => boolean) | undefined;
  const taken = (field: FieldBody) => {
    if (!trimmed(field.label) || !trimmed(field.showIf?.field)) return false;
    if (field.options && !field.options.every(trimmed)) return false;
    const issues: z.core.$ZodRawIssue[] = [];
    check({ value: field, issues });
    return issues.length === 0;
  };
  const parse = (json: unknown): z.ZodSafeParseResult<Array<z.output<T>>> =>
    (passes ??= compiledCheck(schema, { unheld: ['custom', 'overwrite'] }))(json) &&
    (json as FieldBody[]).every(taken)
      ? { success: true, data: json as Array<z.output<T>> }
      : schema.safeParse(json);
  // The zod schema whose answer `parse` gives.
  return Object.assign(parse, { schema });
}

const trimmed = (text: string | null | undefined) => text == null || text === text.trim();

/** One element of `PUT /api/templates/{id}/fields`: the role by id, and the field's own id. */
export const templateFieldInputSchema = z
  .object({ id: z.uuid().optional(), roleId: z.uuid(), ...fieldBody })
  .strict()
  .check(checkField(NUMBERS));

/**
 * One element of `PUT /api/documents/{id}/fields`: the signee by id, and optionally the id of
 * a field it replaces, which it keeps (with the text tag it came from, if any).
 */
export const fieldInputSchema = z
  .object({ id: z.uuid().optional(), signeeId: z.uuid(), ...fieldBody })
  .strict()
  .check(checkField(NUMBERS));

/** The body of `PUT /api/documents/{id}/fields`: the document's whole set of fields. */
export const putFieldsBody = z.object({
  fields: z.array(fieldInputSchema).max(MAX_FIELDS, `at most ${MAX_FIELDS} fields`),
});

/** The answer of the field routes. */
export const fieldsResponse = z.object({ fields: z.array(fieldSchema) });

/** A field input once its signee is known: what the store takes. */
export type FieldDraft = FieldBody & { id?: string; signeeId: string; tagBox?: Box | null };

/** `fields[3].page`: how errors point at a field (decisions §8). */
export function fieldPath(index: number, key?: string): string {
  return `fields[${index}]${key ? `.${key}` : ''}`;
}

/** Zod issues of a `fields` array, with paths in the `fields[3].page` form. */
export function fieldIssues(error: z.ZodError, prefix: PropertyKey[] = []): FieldError[] {
  return error.issues.map((issue) => {
    const path = [...prefix, ...issue.path];
    const [index, ...rest] = path;
    return {
      path:
        typeof index === 'number'
          ? fieldPath(index, rest.map(String).join('.') || undefined)
          : ['fields', ...path].map(String).join('.'),
      message: issue.message,
    };
  });
}

/**
 * The checks that need the document's pages: each field on a page the PDF has, its box
 * inside that page as displayed.
 */
export function placementErrors(
  fields: Array<Box & { page: number }>,
  pages: PageSize[],
): FieldError[] {
  const errors: FieldError[] = [];
  fields.forEach((field, i) => {
    const page = pages[field.page - 1];
    if (!page) {
      const count = pages.length === 1 ? '1 page' : `${pages.length} pages`;
      errors.push({
        path: fieldPath(i, 'page'),
        message: `page ${field.page} does not exist (the document has ${count})`,
      });
      return;
    }
    const size = `${round(page.width)} × ${round(page.height)} points`;
    if (field.x + field.width > page.width + EDGE_TOLERANCE) {
      errors.push({
        path: fieldPath(i, 'width'),
        message: `the box reaches x = ${round(field.x + field.width)}, outside page ${field.page} (${size})`,
      });
    }
    if (field.y + field.height > page.height + EDGE_TOLERANCE) {
      errors.push({
        path: fieldPath(i, 'height'),
        message: `the box reaches y = ${round(field.y + field.height)}, outside page ${field.page} (${size})`,
      });
    }
  });
  return errors;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Whether a field of this type is required, whatever the input said. */
export function isRequired(field: { type: FieldBody['type']; required?: boolean }): boolean {
  return ALWAYS_REQUIRED.has(field.type) || field.required === true;
}
