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
  const parts = templateOf(message);
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i];
    out += (key in values ? String(values[key]) : `{${key}}`) + parts[i + 1];
  }
  return out;
}

// Messages split once at their placeholders: text, name, text, name, …, text. A regular
// expression replacing with a callback took a microsecond a call, and a seal's certificate
// formats a line for every field (the messages are the catalogues', a bounded set).
const templates = new Map<string, string[]>();

function templateOf(message: string): string[] {
  let parts = templates.get(message);
  if (!parts) {
    parts = message.split(/\{(\w+)\}/);
    if (templates.size >= 5_000) templates.clear();
    templates.set(message, parts);
  }
  return parts;
}

// Dates and times for a person to read: one rule per language (dates.ts).
export { formatDate, formatDateTime } from './dates.js';
