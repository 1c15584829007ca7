import { describe, expect, it } from 'vitest';
import { catalogueProblems } from './catalogue-problems.js';
import { catalogues, format, LANGUAGES, textDirection } from './index.js';

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

  it('fills placeholders', () => {
    expect(format('{a} and {b}', { a: 1, b: 'x' })).toBe('1 and x');
    expect(format('{missing}', {})).toBe('{missing}');
  });

  it('lays out Arabic right to left, every other language left to right', () => {
    expect(textDirection('ar')).toBe('rtl');
    for (const language of LANGUAGES.filter((l) => l !== 'ar')) {
      expect(textDirection(language), language).toBe('ltr');
    }
    expect(textDirection('xx')).toBe('ltr');
  });
});
