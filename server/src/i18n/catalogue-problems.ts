// What keeps every language's words in step with English: the catalogue tests (i18n.test.ts and
// test/web/sign-words.test.ts) fail on any problem this finds.

/** Every message of a catalogue (nested objects of strings), by its dotted key. */
export function flattenMessages(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      for (const [key, text] of flattenMessages(v, prefix ? `${prefix}.${k}` : k)) {
        out.set(key, text);
      }
    }
  }
  return out;
}

/** A message's `{name}` placeholders, sorted. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
}

/**
 * How a translation differs from the English it follows: a key missing or extra, an empty
 * message, or placeholders other than English's (each problem one line, none when in step).
 */
export function catalogueProblems(english: unknown, translated: unknown): string[] {
  const source = flattenMessages(english);
  const other = flattenMessages(translated);
  const problems: string[] = [];
  for (const key of other.keys()) if (!source.has(key)) problems.push(`extra key ${key}`);
  for (const [key, text] of source) {
    const translation = other.get(key);
    if (translation === undefined) {
      problems.push(`missing key ${key}`);
      continue;
    }
    if (translation.trim() === '') problems.push(`empty ${key}`);
    const want = placeholdersOf(text).join(', ');
    const got = placeholdersOf(translation).join(', ');
    if (want !== got) problems.push(`${key}: placeholders {${got}}, English has {${want}}`);
  }
  return problems;
}
