import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './dates.js';
import { LANGUAGES } from './index.js';

// One instant, late in the UTC day: a time zone east of UTC is already on the next day.
const AT = '2026-11-27T14:05:09.000Z';

// The rule (docs/signing.md, "Dates and times"), written out for each of the twelve languages.
const RULE: Record<(typeof LANGUAGES)[number], [date: string, time: string]> = {
  en: ['27 November 2026', '27 November 2026, 14:05:09 UTC'],
  de: ['27. November 2026', '27. November 2026, 14:05:09 UTC'],
  fr: ['27 novembre 2026', '27 novembre 2026, 14:05:09 UTC'],
  es: ['27 de noviembre de 2026', '27 de noviembre de 2026, 14:05:09 UTC'],
  nl: ['27 november 2026', '27 november 2026, 14:05:09 UTC'],
  pt: ['27 de novembro de 2026', '27 de novembro de 2026, 14:05:09 UTC'],
  it: ['27 novembre 2026', '27 novembre 2026, 14:05:09 UTC'],
  pl: ['27 listopada 2026', '27 listopada 2026, 14:05:09 UTC'],
  ja: ['2026年11月27日', '2026年11月27日 14:05:09 UTC'],
  zh: ['2026年11月27日', '2026年11月27日 14:05:09 UTC'],
  ko: ['2026년 11월 27일', '2026년 11월 27일 14:05:09 UTC'],
  ar: ['27 نوفمبر 2026', '27 نوفمبر 2026، 14:05:09 UTC'],
};

describe('the date and time rule', () => {
  it('writes a date and a time in each of the twelve languages', () => {
    expect(Object.keys(RULE).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      const [date, time] = RULE[language];
      expect(formatDate(AT, language), language).toBe(date);
      expect(formatDateTime(AT, language), language).toBe(time);
      // The time begins with the date, so a date field and a time of the same day agree.
      expect(formatDateTime(AT, language).startsWith(formatDate(AT, language)), language).toBe(
        true,
      );
    }
  });

  it('reads a calendar date (a date field’s YYYY-MM-DD) as that day, whatever the zone', () => {
    expect(formatDate('2026-11-27', 'en')).toBe('27 November 2026');
    expect(formatDate('2026-11-27', 'de')).toBe('27. November 2026');
    expect(formatDate('2026-02-01', 'ja')).toBe('2026年2月1日');
  });

  it('writes Arabic in Latin digits', () => {
    const all = formatDate(AT, 'ar') + formatDateTime(AT, 'ar');
    expect(all).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9]/u);
  });

  it('names the time zone, and gives the date of that zone', () => {
    expect(formatDateTime(AT, 'en', 'Europe/Berlin')).toBe('27 November 2026, 15:05:09 CET');
    expect(formatDateTime(AT, 'de', 'Europe/Berlin')).toBe('27. November 2026, 15:05:09 MEZ');
    expect(formatDateTime(AT, 'en', 'America/New_York')).toBe('27 November 2026, 09:05:09 GMT-5');
    expect(formatDateTime('2026-11-27T23:30:00Z', 'en', 'Asia/Tokyo')).toBe(
      '28 November 2026, 08:30:00 GMT+9',
    );
    // Midnight is 00, never 24; minutes and seconds always two digits (Korean included).
    expect(formatDateTime('2026-11-27T00:00:00Z', 'ko', 'UTC')).toBe(
      '2026년 11월 27일 00:00:00 UTC',
    );
  });

  it('falls back to English, to UTC and to the input itself', () => {
    expect(formatDateTime(AT, 'xx')).toBe(RULE.en[1]);
    expect(formatDate(AT, 'xx')).toBe(RULE.en[0]);
    expect(formatDateTime(AT, 'en', 'Not/AZone')).toBe(RULE.en[1]);
    expect(formatDateTime('not a time', 'en')).toBe('not a time');
    expect(formatDate('not a date', 'de')).toBe('not a date');
  });
});
