// The one way Signet writes a date or a time for a person to read (docs/signing.md, "Dates and
// times"): the signing page, the e-mails, the seal's pages and the dashboard all call these two
// functions; the API keeps ISO 8601. Pure `Intl`, no Node APIs: the web bundles import it.
//
// A date is the language's long date (`27 November 2026`, `27. November 2026`, `2026年11月27日`).
// A time is that date, a separator, the time as 24-hour `HH:mm:ss` and the time zone's name:
// `27 November 2026, 14:05:09 UTC`. The time is put together here rather than left to `Intl`'s
// own date-and-time pattern: those differ between ICU versions (the browser's and Node's) and
// read unevenly (`um`, `à`, Korean `14시 5분 9초`, Chinese putting the zone first).

// English is written day month year: the order of every other European language Signet speaks
// and of most English readers; the month in words keeps it unambiguous to the rest.
// Arabic in Latin digits: the certificate writes them beside IP addresses, hashes and IDs in
// Latin digits, they are what the Maghreb uses, and ICU versions differ on plain `ar`'s default.
const LOCALES: Record<string, string> = {
  en: 'en-GB',
  de: 'de',
  fr: 'fr',
  es: 'es',
  nl: 'nl',
  pt: 'pt',
  it: 'it',
  pl: 'pl',
  ja: 'ja',
  zh: 'zh',
  ko: 'ko',
  ar: 'ar-u-nu-latn',
};

// Between the date and the time: a comma, Arabic's own comma, none where CJK writing has none.
const SEPARATORS: Record<string, string> = { ar: '، ', ja: ' ', zh: ' ', ko: ' ' };

const formats = new Map<string, Intl.DateTimeFormat>();

// One formatter per language, zone and kind, made on first use: making one costs about 80 µs and
// using it 2 µs, and an audit certificate writes a time for every entry and every field.
function formatter(language: string, timeZone: string, kind: 'date' | 'time') {
  const key = `${language}|${timeZone}|${kind}`;
  let made = formats.get(key);
  if (!made) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'date'
        ? { dateStyle: 'long', timeZone }
        : {
            hour: '2-digit',
            minute: '2-digit',
            second: '2-digit',
            hourCycle: 'h23',
            timeZone,
            timeZoneName: 'short',
          };
    made = new Intl.DateTimeFormat(LOCALES[language], options);
    formats.set(key, made);
  }
  return made;
}

// A known language, else English; a zone `Intl` knows, else UTC (a browser may report one an
// older ICU lacks).
function known(language: string, timeZone: string): { language: string; timeZone: string } {
  const lang = language in LOCALES ? language : 'en';
  try {
    formatter(lang, timeZone, 'date');
    return { language: lang, timeZone };
  } catch {
    return { language: lang, timeZone: 'UTC' };
  }
}

/** A calendar date as a language writes it, read in UTC: `27 November 2026`, `27. November 2026`. */
export function formatDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return formatter(known(language, 'UTC').language, 'UTC', 'date').format(date);
}

// The dates of UTC times already written, by language and day: a certificate writes a time for
// every audit entry and every field, most of them on one or two days, and `Intl` takes about
// 5 µs to write a date where reading it back from here takes a lookup.
const utcDays = new Map<string, string>();

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** An instant as a language writes it in a time zone, named: `27 November 2026, 14:05:09 UTC`. */
export function formatDateTime(iso: string, language: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const use = known(language, timeZone);
  const separator = SEPARATORS[use.language] ?? ', ';
  // UTC is named `UTC` in every language (ICU would write `UTC`, `GMT` or `世界協定時`), and its
  // hours, minutes and seconds are the instant's own.
  if (use.timeZone === 'UTC') {
    const key = `${use.language}|${date.toISOString().slice(0, 10)}`;
    let day = utcDays.get(key);
    if (day === undefined) {
      if (utcDays.size >= 1_000) utcDays.clear();
      day = formatter(use.language, 'UTC', 'date').format(date);
      utcDays.set(key, day);
    }
    const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
    return `${day}${separator}${time} UTC`;
  }
  const parts = formatter(use.language, use.timeZone, 'time').formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  // Two digits each, padded here: some locales drop `2-digit` beside a zone name (Korean `14:5:9`).
  const two = (type: Intl.DateTimeFormatPartTypes) => part(type).padStart(2, '0');
  const time = `${two('hour')}:${two('minute')}:${two('second')}`;
  const day = formatter(use.language, use.timeZone, 'date').format(date);
  return `${day}${separator}${time} ${part('timeZoneName')}`;
}
