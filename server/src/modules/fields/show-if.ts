// Conditional fields (decisions §15): `showIf: {field, equals}` shows a field only while the
// checkbox, radio or dropdown of the same signee labelled `field` holds `equals`. Shared by the
// server (checked when fields are saved, applied when a signee submits) and the signing page
// (web/src/sign shows and hides fields as the signee fills): no imports beyond types.

/** A field's condition: the label of a checkbox, radio or dropdown, and the value it must hold. */
export type ShowIf = { field: string; equals: string | boolean };

/** The types whose value a condition may look at. */
export const CONDITION_TYPES: ReadonlySet<string> = new Set(['checkbox', 'radio', 'dropdown']);

type Conditional = {
  type: string;
  label?: string | null;
  options?: string[] | null;
  showIf?: ShowIf | null;
};

const quoted = (label: string) => `"${label}"`;

/**
 * What is wrong with the conditions of a whole set of fields, each at its path
 * (`fields[3].showIf.field`): a label no field of the same owner (`ownerOf`) has, or two have;
 * a field of another owner; one of a type that holds no choice; an `equals` that field can
 * never hold; conditions that make a cycle.
 */
export function showIfErrors<F extends Conditional>(
  fields: F[],
  ownerOf: (field: F) => unknown,
): Array<{ path: string; message: string }> {
  const errors: Array<{ path: string; message: string }> = [];
  const target = new Map<number, number>();
  fields.forEach((field, i) => {
    const showIf = field.showIf;
    if (!showIf) return;
    const at = (key: string, message: string) =>
      errors.push({ path: `fields[${i}].showIf${key}`, message });
    const named = fields.flatMap((f, j) => (f.label === showIf.field ? [j] : []));
    const own = named.filter((j) => ownerOf(fields[j]) === ownerOf(field));
    if (own.length === 0) {
      return at(
        '.field',
        named.length > 0
          ? `${quoted(showIf.field)} is a field of another signee: a condition looks at the same signee's fields`
          : `no field is labelled ${quoted(showIf.field)}`,
      );
    }
    if (own.length > 1) {
      return at(
        '.field',
        `${own.length} fields of this signee are labelled ${quoted(showIf.field)}`,
      );
    }
    const ref = fields[own[0]];
    if (!CONDITION_TYPES.has(ref.type)) {
      return at(
        '.field',
        `${quoted(showIf.field)} is a ${ref.type} field: a condition looks at a checkbox, radio or dropdown`,
      );
    }
    const problem = equalsProblem(ref, showIf.equals);
    if (problem) return at('.equals', problem);
    target.set(i, own[0]);
  });
  for (const start of target.keys()) {
    const path = [start];
    for (let at = target.get(start); at !== undefined && path.length <= fields.length;) {
      if (at === start) {
        const names = [...path, start].map((j) => quoted(fields[j].label ?? `fields[${j}]`));
        errors.push({
          path: `fields[${start}].showIf`,
          message: `the conditions make a cycle: ${names.join(' → ')}`,
        });
        break;
      }
      path.push(at);
      at = target.get(at);
    }
  }
  return errors;
}

function equalsProblem(ref: Conditional, equals: string | boolean): string | null {
  if (ref.type === 'checkbox') {
    return typeof equals === 'boolean' ? null : 'a checkbox holds true or false';
  }
  if (typeof equals !== 'string') return `a ${ref.type} holds one of its options, a string`;
  // A dropdown from a text tag may have no options yet: it cannot be sent until it has.
  const options = ref.options ?? [];
  if (options.length > 0 && !options.includes(equals)) {
    return `must be one of the options of ${quoted(ref.label ?? '')}: ${options.join(', ')}`;
  }
  return null;
}

/**
 * The ids of a signee's fields that are hidden with these values: a field whose condition does
 * not hold, or whose condition looks at a hidden field. `valueOf` gives a field's value (an
 * unticked checkbox may be null: it holds false).
 */
export function hiddenFields<F extends Conditional & { id: string }>(
  fields: F[],
  valueOf: (field: F) => string | boolean | null | undefined,
): Set<string> {
  const byLabel = new Map<string, F>();
  for (const f of fields) {
    if (f.label && CONDITION_TYPES.has(f.type) && !byLabel.has(f.label)) byLabel.set(f.label, f);
  }
  const shown = new Map<string, boolean>();
  const visible = (field: F, depth: number): boolean => {
    const known = shown.get(field.id);
    if (known !== undefined) return known;
    const showIf = field.showIf;
    let result = true;
    if (showIf) {
      const ref = byLabel.get(showIf.field);
      // A cycle cannot be saved; a chain longer than the fields is one, and hides.
      if (depth > fields.length) result = false;
      else if (ref) {
        const value = valueOf(ref) ?? (ref.type === 'checkbox' ? false : null);
        result = visible(ref, depth + 1) && value === showIf.equals;
      }
    }
    shown.set(field.id, result);
    return result;
  };
  return new Set(fields.filter((f) => !visible(f, 0)).map((f) => f.id));
}
