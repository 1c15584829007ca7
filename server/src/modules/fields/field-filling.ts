import type { FieldError } from '../../lib/errors.js';
import type { FieldRow } from './fields.repo.js';
import { hiddenFields } from './show-if.js';
import { numberValueProblem, textValueProblem } from './validation.js';

/** What a signee filled in: a field's id and its value. */
export type SubmittedValue = { id: string; value: string | boolean };

/** How a signee adopted their signature or initials. */
export type AdoptedMark =
  { type: 'typed'; text: string } | { type: 'drawn' } | { type: 'uploaded' };

// Types whose value the signee gives; the others come from the adopted marks or the service.
// An attachment's value is the id of a file the signee uploaded (checked by signing/attachments.ts).
const SIGNEE_FILLED = new Set(['text', 'checkbox', 'dropdown', 'attachment', 'radio', 'number']);

const describe = (f: FieldRow) => `${f.label ? `"${f.label}" ` : ''}(${f.type}, page ${f.page})`;

/**
 * Checks what a signee submitted against their own fields, as the server must (the page is
 * not trusted): each id one of theirs and of a type they fill, each value of its type (a
 * dropdown's or radio's among its options, a number's and a text's by their rules), no value for
 * a field its condition hides, and every required field that shows filled, a prefilled value
 * counting. Answers the value each of their fields ends with (none for a hidden one).
 */
export function checkFieldValues(
  own: FieldRow[],
  submitted: SubmittedValue[],
): { values: Map<string, string | boolean>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const byId = new Map(own.map((f) => [f.id, f]));
  const values = new Map<string, string | boolean>();
  submitted.forEach(({ id, value }, i) => {
    const field = byId.get(id);
    const at = (message: string) => errors.push({ path: `fields[${i}]`, message });
    if (!field) return at('is not one of your fields');
    if (values.has(id)) return at('repeats a field');
    if (!SIGNEE_FILLED.has(field.type)) {
      return at(`a ${field.type} field is filled from your signature, not by a value`);
    }
    if (field.type === 'checkbox') {
      if (typeof value !== 'boolean') return at('a checkbox value is true or false');
      values.set(id, value);
      return;
    }
    if (typeof value !== 'string') return at(`a ${field.type} value is a string`);
    const text = value.trim();
    if (field.type === 'dropdown' && text !== '') {
      const options = field.options ?? [];
      if (!options.includes(text)) return at(`must be one of: ${options.join(', ')}`);
    }
    const problem = text === '' ? null : ownValueProblem(field, text);
    if (problem) {
      return errors.push({ path: `fields[${i}].value`, message: `${describe(field)} ${problem}` });
    }
    values.set(id, text);
  });
  const hidden = hiddenFields(own.map(conditional), (f) =>
    values.has(f.id) ? values.get(f.id) : f.value,
  );
  submitted.forEach(({ id }, i) => {
    const field = byId.get(id);
    if (!field || !hidden.has(id)) return;
    errors.push({
      path: `fields[${i}].value`,
      message: `${describe(field)} is hidden (${JSON.stringify(field.show_if?.field)} does not hold ${JSON.stringify(field.show_if?.equals)}) and takes no value`,
    });
  });
  for (const field of own) {
    if (!SIGNEE_FILLED.has(field.type)) continue;
    if (hidden.has(field.id)) {
      values.delete(field.id);
      continue;
    }
    const value = values.has(field.id) ? values.get(field.id)! : field.value;
    const empty = value === null || value === '' || value === false;
    if (field.required && empty) {
      errors.push({
        path: 'fields',
        message: `${describe(field)} is required${field.type === 'checkbox' ? ' to be ticked' : ''}`,
      });
    }
    if (!values.has(field.id) && value !== null) values.set(field.id, value);
  }
  return { values, errors };
}

// What a radio's, a number's or a validated text's (non-empty) value breaks, or null.
function ownValueProblem(field: FieldRow, text: string): string | null {
  switch (field.type) {
    case 'radio': {
      const options = field.options ?? [];
      return options.includes(text) ? null : `must be one of: ${options.join(', ')}`;
    }
    case 'number':
      return numberValueProblem(text, {
        min: field.min ?? null,
        max: field.max ?? null,
        decimals: field.decimals ?? null,
      });
    case 'text':
      return textValueProblem(text, field.validation ?? null);
    default:
      return null;
  }
}

const conditional = (f: FieldRow) => ({ ...f, showIf: f.show_if ?? null });

/**
 * The value each of a signee's fields is stored with once they signed: their marks for
 * signature and initials (the typed text, or `drawn`), the signing date (YYYY-MM-DD, UTC) for
 * a date, their name and e-mail, and what they filled in for the rest (null when left empty).
 */
export function signedFieldValues(
  own: FieldRow[],
  input: {
    values: Map<string, string | boolean>;
    signee: { name: string; email: string };
    signature: AdoptedMark;
    initials: AdoptedMark;
    at: string;
  },
): Array<{ fieldId: string; value: string | boolean | null }> {
  const mark = (m: AdoptedMark) => (m.type === 'typed' ? m.text : m.type);
  return own.map((field) => {
    const value = (() => {
      switch (field.type) {
        case 'signature':
          return mark(input.signature);
        case 'initials':
          return mark(input.initials);
        case 'date':
          return input.at.slice(0, 10);
        case 'name':
          return input.signee.name;
        case 'email':
          return input.signee.email;
        default: {
          const value = input.values.get(field.id);
          return value === undefined || value === '' ? null : value;
        }
      }
    })();
    return { fieldId: field.id, value };
  });
}

/** Initials from a name: the first letter of each word, at most four ("Zoë Ünal" → "ZÜ"). */
export function initialsOf(name: string): string {
  const letters = name
    .split(/[\s-]+/u)
    .map((word) => [...word.normalize('NFC')].find((c) => /\p{L}/u.test(c)) ?? '')
    .filter(Boolean)
    .map((c) => c.toLocaleUpperCase());
  return letters.slice(0, 4).join('') || [...name.trim()].slice(0, 2).join('');
}
