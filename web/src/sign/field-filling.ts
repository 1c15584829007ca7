import { useCallback, useMemo, useState } from 'react';
import { initialsOf } from '../../../server/src/modules/fields/field-filling.js';
import { hiddenFields } from '../../../server/src/modules/fields/show-if.js';
import {
  numberValueRule,
  textValueRule,
  type BrokenRule,
} from '../../../server/src/modules/fields/validation.js';
import type { SigningSession } from './signing-api.js';

/** One of the signee's own fields, as `GET /api/signing/{token}` answers it. */
export type SigningField = SigningSession['fields'][number];

/** Another signee's field that already holds a value. */
export type FilledField = SigningSession['filledFields'][number];

/** A typed name or a drawn PNG data URL: what the signee adopted as signature or initials. */
export type Mark =
  | { type: 'typed'; text: string }
  | { type: 'drawn'; image: string }
  | { type: 'uploaded'; image: string };

// Types whose value the signee gives; signature and initials are applied, the rest the service fills.
// An attachment's value is the id the upload answered (attachment-field.tsx).
const SIGNEE_FILLED = new Set(['text', 'checkbox', 'dropdown', 'attachment', 'radio', 'number']);

/**
 * The rule a radio's, a number's or a validated text's value breaks, by the rules the server
 * applies on submit (the same code): null when empty or fine.
 */
export function valueProblem(
  field: SigningField,
  value: string | boolean | undefined,
): BrokenRule | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
  if (field.type === 'number') return numberValueRule(text, field);
  if (field.type === 'text') return textValueRule(text, field.validation);
  if (field.type === 'radio' && !(field.options ?? []).includes(text)) return { rule: 'option' };
  return null;
}

/** A field's accessible name: its label, or its type in the page's language. */
export function fieldName(
  field: { label: string | null; type: string },
  typeNames: Record<string, string>,
): string {
  return field.label ?? typeNames[field.type] ?? field.type;
}

export { initialsOf };

/** Reading order: page, then top to bottom, then left to right. */
function inReadingOrder<T extends { page: number; x: number; y: number }>(fields: T[]): T[] {
  return [...fields].sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
}

/**
 * What the signee has done to their fields: values typed, ticked or chosen, and which
 * signature and initials fields they applied their marks to. Answers which required fields are
 * still empty, and the `fields` part of the sign request.
 */
export function useFieldFilling(
  own: SigningField[],
  marks: { signature: Mark | null; initials: string },
) {
  const fields = useMemo(() => inReadingOrder(own), [own]);
  const [values, setValues] = useState<Record<string, string | boolean>>(() => {
    const prefilled: Record<string, string | boolean> = {};
    for (const f of own) {
      if (SIGNEE_FILLED.has(f.type) && f.value !== null) prefilled[f.id] = f.value;
    }
    return prefilled;
  });
  const [applied, setApplied] = useState<ReadonlySet<string>>(() => new Set());
  // The file name each attachment field shows, by field id: kept here so a zoom keeps it.
  const [fileNames, setFileNames] = useState<Record<string, string>>({});
  const setFileName = useCallback(
    (id: string, name: string) => setFileNames((n) => ({ ...n, [id]: name })),
    [],
  );

  const setValue = useCallback(
    (id: string, value: string | boolean) => setValues((v) => ({ ...v, [id]: value })),
    [],
  );
  const toggleApplied = useCallback(
    (id: string) =>
      setApplied((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );

  const isFilled = useCallback(
    (f: SigningField): boolean => {
      switch (f.type) {
        case 'signature':
          return applied.has(f.id) && marks.signature !== null;
        case 'initials':
          return applied.has(f.id) && marks.initials.trim() !== '';
        case 'date':
        case 'name':
        case 'email':
          return true;
        default: {
          const value = values[f.id];
          return value !== undefined && value !== false && String(value).trim() !== '';
        }
      }
    },
    [applied, marks.signature, marks.initials, values],
  );

  // Fields whose condition does not hold with the values so far: not shown, not required, and
  // sent no value (the server refuses one).
  const hidden = useMemo(
    () => hiddenFields(fields, (f) => (values[f.id] === undefined ? f.value : values[f.id])),
    [fields, values],
  );
  const problems = useMemo(() => {
    const found = new Map<string, BrokenRule>();
    for (const f of fields) {
      const problem = hidden.has(f.id) ? null : valueProblem(f, values[f.id]);
      if (problem) found.set(f.id, problem);
    }
    return found;
  }, [fields, values, hidden]);

  // Signature and initials are always required (decisions §8); the others when marked so. A
  // value that breaks its field's rules keeps the field among those left.
  const left = fields.filter(
    (f) => !hidden.has(f.id) && ((f.required && !isFilled(f)) || problems.has(f.id)),
  );
  const submitted = fields
    .filter((f) => SIGNEE_FILLED.has(f.type) && values[f.id] !== undefined && !hidden.has(f.id))
    .map((f) => ({ id: f.id, value: values[f.id] }));

  return {
    fields,
    values,
    setValue,
    applied,
    toggleApplied,
    isFilled,
    left,
    submitted,
    fileNames,
    setFileName,
    hidden,
    problems,
  };
}

/** The state and actions useFieldFilling answers. */
export type FieldFilling = ReturnType<typeof useFieldFilling>;
