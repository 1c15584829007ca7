import type { FieldError } from '../../lib/errors.js';
import type { FieldRow } from '../fields/fields.repo.js';
import { MAX_TEXT_VALUE, valueProblem } from '../fields/fields.schemas.js';

/** What a prefill value may be, once checked. */
export type PrefillValue = string | boolean;

// A CSV cell's words for a checkbox, any case: `x` is how a sheet marks a box ticked.
const CHECKBOX_CELLS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['yes', true],
  ['1', true],
  ['x', true],
  ['false', false],
  ['no', false],
  ['0', false],
]);

// A template's fields by label, built once per fields array: a bulk send checks thousands of
// rows against the same one. A fields array is read from the store and never changed afterwards.
const byLabelCache = new WeakMap<FieldRow[], Map<string, FieldRow[]>>();

/** The key a prefill entry and a field label are matched by: any case, no surrounding spaces. */
export function labelKey(label: string): string {
  return label.trim().toLowerCase();
}

function fieldsByLabel(fields: FieldRow[]): Map<string, FieldRow[]> {
  const cached = byLabelCache.get(fields);
  if (cached) return cached;
  const byLabel = new Map<string, FieldRow[]>();
  for (const field of fields) {
    if (field.label === null) continue;
    const key = labelKey(field.label);
    const list = byLabel.get(key);
    if (list) list.push(field);
    else byLabel.set(key, [field]);
  }
  byLabelCache.set(fields, byLabel);
  return byLabel;
}

/** Whether some field has this label (any case, surrounding spaces ignored). */
export function hasFieldLabel(fields: FieldRow[], label: string): boolean {
  return fieldsByLabel(fields).has(labelKey(label));
}

/** Values by field id for a prefill map keyed by field label; errors at `prefill.<label>`. */
export function prefillValues(
  fields: FieldRow[], // from server/src/modules/fields/fields.repo.ts
  prefill: Record<string, unknown>,
  options: { fromCsv?: boolean; path?: string } = {},
): {
  values: Map<string, PrefillValue>;
  errors: FieldError[];
  /**
   * The entries taken, by label as given, as JSON would give them: a CSV checkbox cell as its
   * boolean (for a label on a checkbox and a field of another type, the first field's value).
   */
  accepted: Record<string, PrefillValue>;
} {
  const { fromCsv = false, path = 'prefill' } = options;
  const byLabel = fieldsByLabel(fields);
  const values = new Map<string, PrefillValue>();
  const errors: FieldError[] = [];
  const accepted: Record<string, PrefillValue> = {};
  const seen = new Map<string, string>();
  for (const [label, raw] of Object.entries(prefill)) {
    // An empty `path` leaves the label alone: a CSV row's errors name its column.
    const at = path ? `${path}.${label}` : label;
    const key = labelKey(label);
    const matches = byLabel.get(key);
    if (!matches) {
      errors.push({ path: at, message: 'no field has this label' });
      continue;
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      errors.push({ path: at, message: `the same label as ${path ? `${path}.` : ''}${earlier}` });
      continue;
    }
    seen.set(key, label);
    // An empty cell prefills nothing: a sheet cannot tell "no value" apart from "".
    if (fromCsv && typeof raw === 'string' && raw === '') continue;
    const filled = fillAll(matches, fromCsv && typeof raw === 'string' ? raw : undefined, raw);
    if (typeof filled === 'string') errors.push({ path: at, message: filled });
    else {
      for (const [id, value] of filled) values.set(id, value);
      accepted[label] = filled.values().next().value as PrefillValue;
    }
  }
  return { values, errors, accepted };
}

/**
 * The value of every field with one label (a `cell` read as each field's type), or what is wrong
 * with it for the first field it does not fit.
 */
function fillAll(
  fields: FieldRow[],
  cell: string | undefined,
  raw: unknown,
): Map<string, PrefillValue> | string {
  const values = new Map<string, PrefillValue>();
  for (const field of fields) {
    let value = raw;
    if (cell !== undefined && field.type === 'checkbox') {
      value = CHECKBOX_CELLS.get(cell.toLowerCase());
      if (value === undefined) {
        return `${describe(field)}: a checkbox cell is true, false, yes, no, 1, 0 or x`;
      }
    }
    const problem = valueError(field, value);
    if (problem) return `${describe(field)}: ${problem}`;
    values.set(field.id, value as PrefillValue);
  }
  return values;
}

/** What is wrong with this value for this field, by the rules of a field's own `value`. */
function valueError(field: FieldRow, value: unknown): string | null {
  // valueProblem looks only at the value's `typeof` and, for a dropdown, the options: any JSON
  // value can be given to it, whatever its declared type.
  const problem = valueProblem({ ...field, value: value as PrefillValue | null });
  if (problem) return problem;
  if (typeof value === 'string' && value.length > MAX_TEXT_VALUE) {
    return `must be at most ${MAX_TEXT_VALUE} characters`;
  }
  return null;
}

/** `"Start date" (text field on page 2)`: the field a message is about. */
function describe(field: FieldRow): string {
  return `${JSON.stringify(field.label)} (${field.type} field on page ${field.page})`;
}
