import { MAX_DECIMALS, numberRulesProblem } from './validation.js';

// A text tag's settings after its label, each after a `|` (decisions §15, docs/fields.md):
//   {{dropdown:1:Plan|Basic|Pro}}, {{radio:1:Plan|Basic|Pro!}}: the options, in order;
//   {{number:1:Seats|min=1|max=500|decimals=0}}: bounds and decimal places, each optional.
// Other types take no settings: a `|` in their label stays part of it.

/** What a tag's settings give its field. */
export type TagSettings = {
  label: string | null;
  options?: string[];
  min?: number;
  max?: number;
  decimals?: number;
};

const MAX_OPTIONS = 100;
const MAX_OPTION = 200;
const WITH_SETTINGS = new Set(['dropdown', 'radio', 'number']);

/** Splits a tag's label from its settings and reads them; a problem when they do not hold. */
export function readTagSettings(
  type: string,
  rawLabel: string | undefined,
): TagSettings | { problem: string } {
  if (!WITH_SETTINGS.has(type) || rawLabel === undefined) {
    return { label: rawLabel?.trim() || null };
  }
  const [first, ...settings] = rawLabel.split('|').map((part) => part.trim());
  const label = first || null;
  if (type === 'number') return numberSettings(label, settings);
  if (settings.length === 0) {
    return type === 'radio'
      ? { problem: 'a radio tag lists its options after its label: {{radio:1:Plan|Basic|Pro}}' }
      : { label };
  }
  if (settings.some((o) => o === '')) return { problem: 'an option is empty' };
  if (settings.some((o) => o.length > MAX_OPTION)) {
    return { problem: `an option is longer than ${MAX_OPTION} characters` };
  }
  if (settings.length > MAX_OPTIONS) return { problem: `at most ${MAX_OPTIONS} options` };
  if (type === 'radio' && settings.length < 2) {
    return { problem: 'a radio needs at least two options' };
  }
  return { label, options: settings };
}

function numberSettings(
  label: string | null,
  settings: string[],
): TagSettings | { problem: string } {
  const found: TagSettings = { label };
  for (const setting of settings) {
    const [key, raw = ''] = setting.split('=').map((part) => part.trim());
    if (key !== 'min' && key !== 'max' && key !== 'decimals') {
      return { problem: `unknown number setting "${setting}" (min=, max=, decimals=)` };
    }
    const value = raw === '' ? NaN : Number(raw);
    if (!Number.isFinite(value) || Math.abs(value) > 1e12) {
      return { problem: `${key} must be a number, not "${raw}"` };
    }
    if (key === 'decimals' && (!Number.isInteger(value) || value < 0 || value > MAX_DECIMALS)) {
      return { problem: `decimals must be a whole number from 0 to ${MAX_DECIMALS}` };
    }
    found[key] = value;
  }
  const problem = numberRulesProblem({
    min: found.min ?? null,
    max: found.max ?? null,
    decimals: found.decimals ?? null,
  });
  return problem ? { problem } : found;
}
