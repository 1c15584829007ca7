import { RE2JS } from 're2js';

// The rules of `text` fields' `validation` and of `number` fields (decisions §15), shared by the
// server (when a field is saved, and when a signee submits) and the signing page (as the signee
// types): web/src/sign imports this file. Every expression that meets a value runs on re2js, a
// linear-time (RE2) engine: a sender's pattern can never make a check backtrack, and ours
// (the formats, a number's shape) go the same way so that no value meets a JavaScript RegExp.

/** The formats a text field may require. */
export const TEXT_FORMATS = ['email', 'phone', 'digits', 'date'] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

/** A text field's `validation`. */
export type TextValidation = {
  format?: TextFormat;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
};

/** A number field's settings: bounds, and the most decimal places a value may have. */
export type NumberRules = { min: number | null; max: number | null; decimals: number | null };

/** The longest pattern a field may carry. */
export const MAX_PATTERN_LENGTH = 500;
/** The most decimal places a number field may allow. */
export const MAX_DECIMALS = 10;

const FORMATS: Record<TextFormat, { re: RE2JS; says: string }> = {
  email: {
    re: RE2JS.compile('[^\\s@]{1,64}@[^\\s@.]+(\\.[^\\s@.]+)+'),
    says: 'must be an e-mail address',
  },
  // An optional +, then digits with spaces, dots, dashes or brackets between them.
  phone: {
    re: RE2JS.compile('\\+?[0-9 ().\\-]{5,30}'),
    says: 'must be a phone number (digits, spaces, + - . ( ); 5 to 20 digits)',
  },
  digits: { re: RE2JS.compile('[0-9]+'), says: 'must be digits only' },
  date: { re: RE2JS.compile('[0-9]{4}-[0-9]{2}-[0-9]{2}'), says: 'must be a date (YYYY-MM-DD)' },
};
const NUMBER = RE2JS.compile('-?([0-9]+)(\\.([0-9]+))?');

// Compiled patterns by source: the same field's pattern checked for each keystroke or each
// signee compiles once. Bounded: a map past its size starts over.
const compiled = new Map<string, RE2JS>();

function compile(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    if (compiled.size >= 200) compiled.clear();
    re = RE2JS.compile(pattern);
    compiled.set(pattern, re);
  }
  return re;
}

// The engine's first match costs a few milliseconds of its own setting up: paid at load, so a
// signee's first check answers as fast as the rest.
RE2JS.compile('(x+)+$').matches(`${'x'.repeat(4000)}y`);

/** Why a pattern cannot be saved (too long, or not an RE2 expression), or null. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return `a pattern has at most ${MAX_PATTERN_LENGTH} characters`;
  }
  try {
    compile(pattern);
    return null;
  } catch (err) {
    return `not a valid pattern (RE2 syntax): ${(err as Error).message}`;
  }
}

const characters = (text: string) => [...text].length;

/**
 * Why a (non-empty, trimmed) text value fails its field's validation, or null: the length
 * first, then the format, then the pattern, which the whole value must match.
 */
export function textValueProblem(value: string, validation: TextValidation | null): string | null {
  if (!validation) return null;
  const length = characters(value);
  if (validation.minLength !== undefined && length < validation.minLength) {
    return `must be at least ${validation.minLength} characters long`;
  }
  if (validation.maxLength !== undefined && length > validation.maxLength) {
    return `must be at most ${validation.maxLength} characters long`;
  }
  if (validation.format) {
    const rule = FORMATS[validation.format];
    if (!rule.re.matches(value) || !formatHolds(validation.format, value)) return rule.says;
  }
  if (validation.pattern !== undefined && !compile(validation.pattern).matches(value)) {
    return 'does not have the required form';
  }
  return null;
}

// What the formats' expressions cannot say: a phone number's count of digits, a real date.
function formatHolds(format: TextFormat, value: string): boolean {
  if (format === 'phone') {
    let digits = 0;
    for (const c of value) if (c >= '0' && c <= '9') digits++;
    return digits >= 5 && digits <= 20;
  }
  if (format === 'date') {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }
  return true;
}

/** Why a number field's settings do not hold together (min above max), or null. */
export function numberRulesProblem(rules: NumberRules): string | null {
  if (rules.min !== null && rules.max !== null && rules.min > rules.max) {
    return 'min must not be above max';
  }
  return null;
}

/**
 * Why a (non-empty, trimmed) number value fails: a decimal string (`-12.5`, digits with an
 * optional point, no exponent), with at most `decimals` places (0 when not set), within the
 * bounds.
 */
export function numberValueProblem(value: string, rules: NumberRules): string | null {
  const decimals = rules.decimals ?? 0;
  const matcher = NUMBER.matcher(value);
  if (value.length > 40 || !matcher.matches()) {
    return decimals === 0 ? 'must be a whole number' : 'must be a number (like 12.5)';
  }
  const places = matcher.group(3)?.length ?? 0;
  if (places > decimals) {
    return decimals === 0
      ? 'must be a whole number'
      : `must have at most ${decimals} decimal place${decimals === 1 ? '' : 's'}`;
  }
  const number = Number(value);
  if (rules.min !== null && number < rules.min) return `must be at least ${rules.min}`;
  if (rules.max !== null && number > rules.max) return `must be at most ${rules.max}`;
  return null;
}
