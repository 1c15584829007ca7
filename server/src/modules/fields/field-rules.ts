import type { z } from 'zod';
import { PREFILLABLE } from './field-types.js';
import type { FieldBody } from './fields.schemas.js';
import {
  numberRulesProblem,
  numberValueProblem,
  patternProblem,
  textValueProblem,
  type TextValidation,
} from './validation.js';

// The rules between a field input's own properties (fields.schemas.ts runs them in its one
// check per field), and the rules of a field's own value, which template prefills use too.

/** What a dropdown without options is told, wherever it is found (input, or at sending). */
export const NO_OPTIONS = 'a dropdown needs at least one option';
const NO_RADIO_OPTIONS = 'a radio needs at least two options';
const CHOICES: ReadonlySet<string> = new Set(['dropdown', 'radio']);

/**
 * The rules between a field's own properties: options only and always on dropdowns and radios,
 * bounds only on numbers, validation only on text, a value only where the sender may prefill
 * one, and of the type's kind. No closure is made per field: one (an `issue(path, message)`
 * helper) made this check cost 0.25 µs a field, 40 times the rules it ran.
 */
export function checkBody(field: FieldBody, issues: z.core.$ZodRawIssue[]) {
  if (CHOICES.has(field.type)) {
    const least = field.type === 'radio' ? 2 : 1;
    if ((field.options?.length ?? 0) < least) {
      const message = field.type === 'radio' ? NO_RADIO_OPTIONS : NO_OPTIONS;
      issues.push(bodyIssue(field, 'options', message));
    }
  } else if (field.options != null) {
    issues.push(bodyIssue(field, 'options', 'only dropdown and radio fields take options'));
  }
  if (field.min != null || field.max != null || field.decimals != null) checkNumber(field, issues);
  if (field.validation != null) checkValidation(field, field.validation, issues);
  if (field.value == null) return;
  const problem = valueProblem(field);
  if (problem) issues.push(bodyIssue(field, 'value', problem));
}

function checkNumber(field: FieldBody, issues: z.core.$ZodRawIssue[]) {
  if (field.type !== 'number') {
    const key = field.min != null ? 'min' : field.max != null ? 'max' : 'decimals';
    issues.push(bodyIssue(field, key, 'only number fields take min, max and decimals'));
    return;
  }
  const problem = numberRulesProblem(numberRules(field));
  if (problem) issues.push(bodyIssue(field, 'min', problem));
}

function checkValidation(
  field: FieldBody,
  validation: TextValidation,
  issues: z.core.$ZodRawIssue[],
) {
  if (field.type !== 'text') {
    issues.push(bodyIssue(field, 'validation', 'only text fields take validation'));
    return;
  }
  const { minLength, maxLength, pattern } = validation;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
    issues.push(bodyIssue(field, 'validation.minLength', 'must not be above maxLength'));
  }
  const problem = pattern === undefined ? null : patternProblem(pattern);
  if (problem) issues.push(bodyIssue(field, 'validation.pattern', problem));
}

/** A number field's bounds and places, null where not set. */
export function numberRules(field: {
  min?: number | null;
  max?: number | null;
  decimals?: number | null;
}) {
  return { min: field.min ?? null, max: field.max ?? null, decimals: field.decimals ?? null };
}

/** What a field's own (prefilled) value breaks, or null: the rules of its type. */
export function valueProblem(
  field: Pick<FieldBody, 'type' | 'options' | 'value' | 'min' | 'max' | 'decimals'> & {
    validation?: TextValidation | null;
  },
): string | null {
  if (!PREFILLABLE.has(field.type)) {
    return `a ${field.type} field is filled when signing and takes no value`;
  }
  if (field.type === 'checkbox') {
    return typeof field.value === 'boolean' ? null : 'a checkbox value is true or false';
  }
  if (typeof field.value !== 'string') return `a ${field.type} value is a string`;
  if (CHOICES.has(field.type) && !field.options?.includes(field.value)) {
    return 'must be one of the options';
  }
  if (field.type === 'number') return numberValueProblem(field.value, numberRules(field));
  if (field.type === 'text' && field.value !== '') {
    // A pattern that does not compile is told at its own path.
    try {
      return textValueProblem(field.value, field.validation ?? null);
    } catch {
      return null;
    }
  }
  return null;
}

function bodyIssue(field: FieldBody, path: string, message: string): z.core.$ZodRawIssue {
  return { code: 'custom', path: path.split('.'), message, input: field, continue: true };
}
