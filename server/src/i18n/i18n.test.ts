import { describe, expect, it } from 'vitest';
import { catalogueProblems } from './catalogue-problems.js';
import {
  catalogues,
  format,
  formatDate,
  formatTime,
  intlLocale,
  LANGUAGES,
  textDirection,
} from './index.js';

describe('message catalogues', () => {
  it('speaks twelve languages, each with a catalogue of its own', () => {
    expect([...LANGUAGES]).toEqual([
      ...['en', 'de', 'fr', 'es', 'nl', 'pt', 'it', 'pl', 'ja', 'zh', 'ko', 'ar'],
    ]);
    expect(Object.keys(catalogues).sort()).toEqual([...LANGUAGES].sort());
    expect(new Set(Object.values(catalogues)).size).toBe(LANGUAGES.length);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    '%s has every English key, no other, each non-empty with the same placeholders',
    (language) => {
      expect(catalogueProblems(catalogues.en, catalogues[language])).toEqual([]);
    },
  );

  it('finds a missing key, an extra key, an empty message and a placeholder mismatch', () => {
    const english = { a: 'Hello {name}', b: { c: '{n} pages', d: 'Sign' } };
    expect(catalogueProblems(english, english)).toEqual([]);
    const broken = { a: 'Bonjour {nom}', b: { c: '' }, e: 'extra' };
    expect(catalogueProblems(english, broken)).toEqual([
      'extra key e',
      'a: placeholders {nom}, English has {name}',
      'empty b.c',
      'b.c: placeholders {}, English has {n}',
      'missing key b.d',
    ]);
  });

  it('writes no English word into a language of another script', () => {
    // A forgotten copy of the English would pass the key check: the scripts tell it apart.
    const script = {
      ja: /[\u3040-\u30ff\u4e00-\u9fff]/u,
      zh: /[\u4e00-\u9fff]/u,
      ko: /[\uac00-\ud7af]/u,
    };
    const arabic = /\p{Script=Arabic}/u;
    for (const [language, letters] of Object.entries({ ...script, ar: arabic })) {
      const catalogue = catalogues[language as keyof typeof catalogues];
      expect(catalogue.signing.signDocument, language).toMatch(letters);
      expect(catalogue.seal.auditCertificate, language).toMatch(letters);
      expect(catalogue.email.invitation.button, language).toMatch(letters);
    }
  });

  it('fills placeholders and formats times per language', () => {
    expect(format('{a} and {b}', { a: 1, b: 'x' })).toBe('1 and x');
    expect(format('{missing}', {})).toBe('{missing}');
    const iso = '2026-11-25T21:05:09.000Z';
    expect(formatTime(iso, 'en')).toBe('2026-11-25 21:05:09 UTC');
    expect(formatTime(iso, 'de')).toBe('25.11.2026, 21:05:09 UTC');
    expect(formatTime(iso, 'nl')).toMatch(/^25 nov\.? 2026,? 21:05:09 UTC$/);
    expect(formatTime(iso, 'pt')).toMatch(/^25 de nov\.? de 2026,? 21:05:09 UTC$/);
    expect(formatTime(iso, 'it')).toMatch(/^25 nov 2026,? 21:05:09 UTC$/);
    expect(formatTime(iso, 'pl')).toMatch(/^25 lis 2026,? 21:05:09 UTC$/);
    expect(formatTime(iso, 'ja')).toBe('2026/11/25 21:05:09 UTC');
    expect(formatTime(iso, 'zh')).toBe('2026年11月25日 21:05:09 UTC');
    expect(formatTime(iso, 'ko')).toMatch(/^2026\. 11\. 25\.? 21:05:09 UTC$/);
    expect(formatDate(iso, 'ja')).toBe('2026年11月25日');
    expect(formatDate(iso, 'pl')).toBe('25 listopada 2026');
  });

  it('writes Arabic dates and times in Latin digits, right to left', () => {
    const iso = '2026-11-25T21:05:09.000Z';
    const time = formatTime(iso, 'ar');
    // Latin digits (docs/signing.md), never Arabic-Indic ones (U+0660–U+0669).
    expect(time).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9]/u);
    expect(time.replace(/\u200f/g, '')).toMatch(/^25\/11\/2026، 21:05:09 UTC$/);
    expect(formatDate(iso, 'ar')).toBe('25 نوفمبر 2026');
    expect(textDirection('ar')).toBe('rtl');
    for (const language of LANGUAGES.filter((l) => l !== 'ar')) {
      expect(textDirection(language), language).toBe('ltr');
    }
    expect(textDirection('xx')).toBe('ltr');
    expect(intlLocale('ar')).toBe('ar-u-nu-latn');
    expect(intlLocale('ja')).toBe('ja');
  });
});
