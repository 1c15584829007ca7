import { describe, expect, it } from 'vitest';
import { catalogues, format, formatTime, LANGUAGES } from './index.js';

// Every message of a catalogue, by its dotted key.
function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      for (const [key, text] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(key, text);
    }
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalogues', () => {
  const english = flatten(catalogues.en);

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    '%s has every English key, no other, each non-empty with the same placeholders',
    (language) => {
      const other = flatten(catalogues[language]);
      expect([...other.keys()].filter((k) => !english.has(k))).toEqual([]);
      expect([...english.keys()].filter((k) => !other.has(k))).toEqual([]);
      for (const [key, text] of english) {
        const translated = other.get(key)!;
        expect(translated.trim(), key).not.toBe('');
        expect(placeholders(translated), key).toEqual(placeholders(text));
      }
    },
  );

  it('fills placeholders and formats times per language', () => {
    expect(format('{a} and {b}', { a: 1, b: 'x' })).toBe('1 and x');
    expect(format('{missing}', {})).toBe('{missing}');
    const iso = '2026-11-25T21:05:09.000Z';
    expect(formatTime(iso, 'en')).toBe('2026-11-25 21:05:09 UTC');
    expect(formatTime(iso, 'de')).toBe('25.11.2026, 21:05:09 UTC');
    expect(formatTime(iso, 'nl')).toMatch(/^25 nov\.? 2026,? 21:05:09 UTC$/);
  });
});
