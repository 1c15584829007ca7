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

/**
 * The rule a value breaks, with the figure its message names: the server says it in English,
 * the signing page in the document's language (web/src/sign/field-rule-words.ts).
 */
export type BrokenRule =
  | { rule: 'minLength' | 'maxLength' | 'min' | 'max' | 'decimals'; limit: number }
  | { rule: 'format'; format: TextFormat }
  | { rule: 'pattern' | 'wholeNumber' | 'number' | 'option' };

/** How one language says each broken rule; `{limit}` is the figure. */
export type RuleWords = {
  minLength: string;
  maxLength: string;
  format: Record<TextFormat, string>;
  pattern: string;
  wholeNumber: string;
  number: string;
  /** At most one decimal place, and at most `{limit}` of them. */
  oneDecimal: string;
  decimals: string;
  min: string;
  max: string;
  option: string;
};

/** The server's words for broken rules: the messages of its 422s. */
export const ENGLISH_RULE_WORDS: RuleWords = {
  minLength: 'must be at least {limit} characters long',
  maxLength: 'must be at most {limit} characters long',
  format: {
    email: 'must be an e-mail address',
    phone: 'must be a phone number (digits, spaces, + - . ( ); 5 to 20 digits)',
    digits: 'must be digits only',
    date: 'must be a date (YYYY-MM-DD)',
  },
  pattern: 'does not have the required form',
  wholeNumber: 'must be a whole number',
  number: 'must be a number (like 12.5)',
  oneDecimal: 'must have at most 1 decimal place',
  decimals: 'must have at most {limit} decimal places',
  min: 'must be at least {limit}',
  max: 'must be at most {limit}',
  option: 'not an option',
};

/** A broken rule in the words of one language (English: the server's). */
export function describeRule(broken: BrokenRule, words: RuleWords = ENGLISH_RULE_WORDS): string {
  switch (broken.rule) {
    case 'format':
      return words.format[broken.format];
    case 'decimals':
      return broken.limit === 1
        ? words.oneDecimal
        : words.decimals.replace('{limit}', String(broken.limit));
    case 'minLength':
    case 'maxLength':
    case 'min':
    case 'max':
      return words[broken.rule].replace('{limit}', String(broken.limit));
    default:
      return words[broken.rule];
  }
}

/** The longest pattern a field may carry. */
export const MAX_PATTERN_LENGTH = 500;
/** The most decimal places a number field may allow. */
export const MAX_DECIMALS = 10;

const FORMATS: Record<TextFormat, RE2JS> = {
  email: RE2JS.compile('[^\\s@]{1,64}@[^\\s@.]+(\\.[^\\s@.]+)+'),
  // An optional +, then digits with spaces, dots, dashes or brackets between them.
  phone: RE2JS.compile('\\+?[0-9 ().\\-]{5,30}'),
  digits: RE2JS.compile('[0-9]+'),
  date: RE2JS.compile('[0-9]{4}-[0-9]{2}-[0-9]{2}'),
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
 * The rule a (non-empty, trimmed) text value breaks, or null: the length first, then the
 * format, then the pattern, which the whole value must match.
 */
export function textValueRule(value: string, validation: TextValidation | null): BrokenRule | null {
  if (!validation) return null;
  const length = characters(value);
  if (validation.minLength !== undefined && length < validation.minLength) {
    return { rule: 'minLength', limit: validation.minLength };
  }
  if (validation.maxLength !== undefined && length > validation.maxLength) {
    return { rule: 'maxLength', limit: validation.maxLength };
  }
  const format = validation.format;
  if (format && !(FORMATS[format].matches(value) && formatHolds(format, value))) {
    return { rule: 'format', format };
  }
  if (validation.pattern !== undefined && !compile(validation.pattern).matches(value)) {
    return { rule: 'pattern' };
  }
  return null;
}

/** Why a (non-empty, trimmed) text value fails its field's validation, in English, or null. */
export function textValueProblem(value: string, validation: TextValidation | null): string | null {
  const broken = textValueRule(value, validation);
  return broken && describeRule(broken);
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
 * The rule a (non-empty, trimmed) number value breaks, or null: a decimal string (`-12.5`,
 * digits with an optional point, no exponent), with at most `decimals` places (0 when not set),
 * within the bounds.
 */
export function numberValueRule(value: string, rules: NumberRules): BrokenRule | null {
  const decimals = rules.decimals ?? 0;
  const matcher = NUMBER.matcher(value);
  const whole = decimals === 0;
  if (value.length > 40 || !matcher.matches()) return { rule: whole ? 'wholeNumber' : 'number' };
  const places = matcher.group(3)?.length ?? 0;
  if (places > decimals)
    return whole ? { rule: 'wholeNumber' } : { rule: 'decimals', limit: decimals };
  const number = Number(value);
  if (rules.min !== null && number < rules.min) return { rule: 'min', limit: rules.min };
  if (rules.max !== null && number > rules.max) return { rule: 'max', limit: rules.max };
  return null;
}

/** Why a (non-empty, trimmed) number value fails its field's rules, in English, or null. */
export function numberValueProblem(value: string, rules: NumberRules): string | null {
  const broken = numberValueRule(value, rules);
  return broken && describeRule(broken);
}
