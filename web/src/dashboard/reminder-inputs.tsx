import type { ReactNode } from 'react';
import type { FieldError } from '../shared/http.js';
import { fieldError } from './api.js';
import type { SignetDocument } from './types.js';
import { TextField } from './ui.js';
import './workflow.css';

/** An automatic reminder policy as the API answers it (decisions §12). */
export type ReminderPolicy = NonNullable<SignetDocument['reminders']>;

/** The three inputs of a policy as typed: days to the first, days between, most per signee. */
export type ReminderTexts = { first: string; every: string; max: string };

/** Which of the three inputs. */
type Part = keyof ReminderTexts;

/** The typed values as numbers: empty is null; anything that is no number at all is named. */
export type ReadReminders = {
  first: number | null;
  every: number | null;
  max: number | null;
  notNumbers: Part[];
};

// Each input's label, and the words its error sentence starts with ("Days between reminders must
// be at least 1."): the labels read as one line, "First after 2 days, then every 3, at most 3".
const LABELS: Record<Part, { label: string; error: string; example: string }> = {
  first: { label: 'First after (days)', error: 'Days until the first reminder', example: '3' },
  every: { label: 'Then every (days)', error: 'Days between reminders', example: '7' },
  max: { label: 'At most (reminders)', error: 'Reminders per signee', example: '3' },
};

/** The form's texts for numbers as saved (null is an empty input). */
export function reminderTexts(
  first: number | null,
  every: number | null,
  max: number | null,
): ReminderTexts {
  const text = (n: number | null) => (n === null ? '' : String(n));
  return { first: text(first), every: text(every), max: text(max) };
}

/**
 * The typed texts as numbers for a PATCH: a number goes as typed, so the service's own rule
 * (whole days 1 to 365, at most 1 to 10) explains a bad one next to its input.
 */
export function readReminders(texts: ReminderTexts): ReadReminders {
  const read: ReadReminders = { first: null, every: null, max: null, notNumbers: [] };
  for (const part of ['first', 'every', 'max'] as const) {
    const text = texts[part].trim();
    if (text === '') continue;
    const n = Number(text);
    if (Number.isFinite(n)) read[part] = n;
    else read.notNumbers.push(part);
  }
  return read;
}

/**
 * Each input's error: the form's own for a word that is no number, else the service's 422 at
 * that input's path (`paths`: the API's property for each input).
 */
export function reminderErrors(
  read: ReadReminders | null,
  errors: FieldError[],
  paths: Record<Part, string>,
): Partial<Record<Part, string>> {
  const out: Partial<Record<Part, string>> = {};
  for (const part of ['first', 'every', 'max'] as const) {
    const { error, example } = LABELS[part];
    out[part] = read?.notNumbers.includes(part)
      ? `${error} must be a whole number, like ${example}.`
      : fieldError(errors, paths[part], error);
  }
  return out;
}

const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

/** A policy in words: "First reminder 2 days after invitation, then every 3 days, at most 3". */
export function describeReminders(policy: ReminderPolicy): string {
  const { firstAfterDays: first, everyDays: every, max } = policy;
  if (every === null || max === 1) return `One reminder ${days(first)} after invitation`;
  const then = every === 1 ? 'every day' : `every ${every} days`;
  return `First reminder ${days(first)} after invitation, then ${then}, at most ${max}`;
}

/**
 * The three inputs of a reminder policy under `legend`, with a line on what they do and each
 * input's error; `error` is one for the policy as a whole.
 */
export function ReminderInputs(props: {
  legend: string;
  value: ReminderTexts;
  onChange: (value: ReminderTexts) => void;
  errors: Partial<Record<Part, string>>;
  hint: ReactNode;
  error?: string;
  hintId: string;
}) {
  const { value, errors, hintId } = props;
  return (
    <fieldset
      className="reminder-inputs"
      aria-describedby={`${hintId}${props.error ? ` ${hintId}-error` : ''}`}
    >
      <legend>{props.legend}</legend>
      <span className="field-hint" id={hintId}>
        {props.hint}
      </span>
      <div className="reminder-row">
        {(['first', 'every', 'max'] as const).map((part) => (
          <TextField
            key={part}
            label={LABELS[part].label}
            inputMode="numeric"
            value={value[part]}
            onChange={(e) => props.onChange({ ...value, [part]: e.target.value })}
            error={errors[part]}
          />
        ))}
      </div>
      {props.error && (
        <span className="field-error" id={`${hintId}-error`}>
          {props.error}
        </span>
      )}
    </fieldset>
  );
}
