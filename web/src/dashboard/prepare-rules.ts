// The Prepare view's model of a field's rules (decisions §15): a number's bounds and decimal
// places, a text's validation, and the condition that shows a field. Held as typed (strings),
// turned into the API's form when saved. Pure functions: no React, no DOM.
import type * as Api from '../../../server/src/api-types.js';

/** A field's rules as the sender types them; '' is not set. */
export type RulesDraft = {
  min: string;
  max: string;
  decimals: string;
  format: '' | 'email' | 'phone' | 'digits' | 'date';
  pattern: string;
  minLength: string;
  maxLength: string;
  /** The label of the checkbox, radio or dropdown looked at; '' shows the field always. */
  showIfField: string;
  /** The value it must hold: an option, or true/false for a checkbox. */
  showIfEquals: string | boolean;
};

/** A field without rules. */
export const NO_RULES: RulesDraft = {
  min: '',
  max: '',
  decimals: '',
  format: '',
  pattern: '',
  minLength: '',
  maxLength: '',
  showIfField: '',
  showIfEquals: '',
};

const typed = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** A field's rules from the server as the editor holds them. */
export function rulesFromServer(field: Api.Field | Api.TemplateField): RulesDraft {
  const v = field.validation;
  return {
    min: typed(field.min),
    max: typed(field.max),
    decimals: typed(field.decimals),
    format: v?.format ?? '',
    pattern: v?.pattern ?? '',
    minLength: typed(v?.minLength),
    maxLength: typed(v?.maxLength),
    showIfField: field.showIf?.field ?? '',
    showIfEquals: field.showIf === null ? '' : field.showIf.equals,
  };
}

// A typed number; one that does not read as a number goes as NaN, and the service says so.
const number = (text: string): number | undefined =>
  text.trim() === '' ? undefined : Number(text.trim());

/**
 * The rules' part of a field's input: bounds only for a number, validation only for a text, a
 * condition for any.
 */
export function rulesInput(
  type: string,
  rules: RulesDraft,
): Pick<Api.Field, 'min' | 'max' | 'decimals' | 'validation' | 'showIf'> {
  const input: Pick<Api.Field, 'min' | 'max' | 'decimals' | 'validation' | 'showIf'> = {
    min: null,
    max: null,
    decimals: null,
    validation: null,
    showIf: null,
  };
  if (type === 'number') {
    input.min = number(rules.min) ?? null;
    input.max = number(rules.max) ?? null;
    input.decimals = number(rules.decimals) ?? null;
  }
  if (type === 'text') {
    const validation: NonNullable<Api.Field['validation']> = {};
    if (rules.format) validation.format = rules.format;
    if (rules.pattern) validation.pattern = rules.pattern;
    const [minLength, maxLength] = [number(rules.minLength), number(rules.maxLength)];
    if (minLength !== undefined) validation.minLength = minLength;
    if (maxLength !== undefined) validation.maxLength = maxLength;
    if (Object.keys(validation).length > 0) input.validation = validation;
  }
  if (rules.showIfField.trim()) {
    input.showIf = {
      field: rules.showIfField.trim(),
      equals: rules.showIfEquals,
    };
  }
  return input;
}

/** The fields a condition may look at: checkboxes, radios and dropdowns with a label. */
export function conditionTargets<
  F extends { key: string; type: string; label: string; participantId: string },
>(field: F, fields: F[]): F[] {
  return fields.filter(
    (f) =>
      f.key !== field.key &&
      f.participantId === field.participantId &&
      ['checkbox', 'radio', 'dropdown'].includes(f.type) &&
      f.label.trim() !== '',
  );
}
