import { ar } from './ar.js';
import { de } from './de.js';
import { en, type Catalogue } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { ko } from './ko.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { pt } from './pt.js';
import { zh } from './zh.js';

/** The languages Signet speaks: a document's `emailLanguage`. */
export const LANGUAGES = [
  'en',
  'de',
  'fr',
  'es',
  'nl',
  'pt',
  'it',
  'pl',
  'ja',
  'zh',
  'ko',
  'ar',
] as const;
export type Language = (typeof LANGUAGES)[number];
export type { Catalogue };

/** One catalogue per language, each with every key of English. */
export const catalogues: Record<Language, Catalogue> = {
  en,
  de,
  fr,
  es,
  nl,
  pt,
  it,
  pl,
  ja,
  zh,
  ko,
  ar,
};

/** Languages written right to left: their pages and e-mails carry `dir="rtl"`. */
const RIGHT_TO_LEFT_LANGUAGES: ReadonlySet<string> = new Set<Language>(['ar']);

/** `rtl` for a language written right to left, else `ltr`. */
export function textDirection(language: string): 'rtl' | 'ltr' {
  return RIGHT_TO_LEFT_LANGUAGES.has(language) ? 'rtl' : 'ltr';
}

/** The catalogue of a language; English for anything else. */
export function messages(language: string): Catalogue {
  return catalogues[language as Language] ?? en;
}

/** Fills a message's `{name}` placeholders; an unknown one stays as written. */
export function format(message: string, values: Record<string, string | number> = {}): string {
  return message.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

const TIME_FORMAT: Intl.DateTimeFormatOptions = {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
  hourCycle: 'h23',
};
const DATE_FORMAT: Intl.DateTimeFormatOptions = { dateStyle: 'long', timeZone: 'UTC' };
// Arabic dates and times in Latin digits (docs/signing.md): the certificate writes them beside
// IP addresses, hashes and IDs in Latin digits, and Latin digits are what Arabic readers of the
// Maghreb use; pinned, since ICU versions differ on the default of plain `ar`.
const INTL_LOCALES: Partial<Record<Language, string>> = { ar: 'ar-u-nu-latn' };

/** The `Intl` locale a language's dates are written in (Arabic: with Latin digits). */
export function intlLocale(language: string): string {
  return INTL_LOCALES[language as Language] ?? language;
}
const timeFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

// One formatter per language and style, made on first use: making one costs about 80 µs and
// using it 2 µs, and an audit certificate writes a time for every entry and every field.
function formatter(
  cache: Map<string, Intl.DateTimeFormat>,
  language: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  let made = cache.get(language);
  if (!made) {
    cache.set(language, (made = new Intl.DateTimeFormat(intlLocale(language), options)));
  }
  return made;
}

/** A time as the document's language writes it, in UTC: `25.11.2026, 21:05:09 UTC`. */
export function formatTime(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // English keeps the unambiguous ISO form the certificate has always shown.
  if (!(language in catalogues) || language === 'en') {
    return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  }
  return `${formatter(timeFormats, language, TIME_FORMAT).format(date)} UTC`;
}

/** A date as the document's language writes it (`25. November 2026`). */
export function formatDate(iso: string, language: string): string {
  const known = language in catalogues ? language : 'en';
  return formatter(dateFormats, known, DATE_FORMAT).format(new Date(iso));
}
