// Turns the service's 422 field messages into sentences a person reads next to a field. The
// service speaks to programs: zod's defaults ("Too small: expected string to have >=1
// characters") and its own short phrases meant to follow the field's name ("must not be empty").
// Pure functions, no DOM: test/web/field-messages.test.ts checks every rule.

type Rule = [RegExp, (m: RegExpExecArray) => string];

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

// What a zod "Invalid <format>" names, as the rest of a sentence after the label.
const FORMATS: Record<string, string> = {
  'email address': 'must be a valid address like name@example.com',
  URL: 'must be a full URL like https://example.com/webhooks',
  UUID: 'is not a valid ID',
  'ISO datetime': 'must be a date and time',
  'ISO date': 'must be a date',
  'ISO time': 'must be a time of day',
  'IPv4 address': 'must be an IPv4 address',
  'IPv6 address': 'must be an IPv6 address',
};

// The JavaScript type zod expected, as what the field must be.
const TYPES: Record<string, string> = {
  string: 'must be text',
  number: 'must be a number',
  int: 'must be a whole number',
  boolean: 'must be yes or no',
  array: 'must be a list',
  object: 'is not in the expected form',
  date: 'must be a date',
};

// A zod option list, `"en"|"de"`, as `en, de`.
const options = (list: string) =>
  list
    .split('|')
    .map((o) => o.replace(/^"(.*)"$/, '$1'))
    .join(', ');

// Each rule gives the rest of the sentence after the label; the first match wins. Anchored on
// both ends, so a message already rewritten (it starts with its label) never matches again.
const RULES: Rule[] = [
  // Lengths of text.
  [/^Too small: expected string to have (?:>=1|>0) characters$/, () => 'must not be empty'],
  [
    /^Too small: expected string to have (>=|>|exactly )(\d+) characters$/,
    (m) =>
      m[1] === 'exactly '
        ? `must be exactly ${count(Number(m[2]), 'character', 'characters')} long`
        : `must be at least ${count(Number(m[2]) + (m[1] === '>' ? 1 : 0), 'character', 'characters')} long`,
  ],
  [
    /^Too big: expected string to have (<=|<|exactly )(\d+) characters$/,
    (m) =>
      m[1] === 'exactly '
        ? `must be exactly ${count(Number(m[2]), 'character', 'characters')} long`
        : `must be at most ${count(Number(m[2]) - (m[1] === '<' ? 1 : 0), 'character', 'characters')} long`,
  ],
  // Sizes of lists.
  [
    /^Too small: expected (?:array|set) to have (>=|>|exactly )(\d+) items$/,
    (m) => {
      const n = Number(m[2]) + (m[1] === '>' ? 1 : 0);
      return n === 1 ? 'must have at least one entry' : `must have at least ${n} entries`;
    },
  ],
  [
    /^Too big: expected (?:array|set) to have (<=|<|exactly )(\d+) items$/,
    (m) => `can have at most ${count(Number(m[2]) - (m[1] === '<' ? 1 : 0), 'entry', 'entries')}`,
  ],
  // Numbers.
  [
    /^Too small: expected (?:number|int|bigint) to be (>=|>)(-?[\d.]+)$/,
    (m) => (m[1] === '>' ? `must be more than ${m[2]}` : `must be at least ${m[2]}`),
  ],
  [
    /^Too big: expected (?:number|int|bigint) to be (<=|<)(-?[\d.]+)$/,
    (m) => (m[1] === '<' ? `must be less than ${m[2]}` : `must be at most ${m[2]}`),
  ],
  [/^Invalid number: must be a multiple of ([\d.]+)$/, (m) => `must be a multiple of ${m[1]}`],
  // Types, values and formats.
  [/^Invalid input: expected \w+, received (?:undefined|null)$/, () => 'is required'],
  [/^Invalid input: expected (\w+), received \w+$/, (m) => TYPES[m[1]] ?? 'has the wrong type'],
  [/^Invalid input: expected (".*"|[\w.-]+)$/, (m) => `must be ${m[1]}`],
  [/^Invalid option: expected one of (.+)$/, (m) => `must be one of: ${options(m[1])}`],
  [/^Invalid string: must match pattern .+$/, () => 'is not in the expected format'],
  [/^Invalid string: (must (?:start with|end with|include) ".*")$/, (m) => m[1]],
  [/^Invalid input$/, () => 'is not valid'],
  [/^Invalid ([\w .-]+)$/, (m) => FORMATS[m[1]] ?? `is not a valid ${m[1]}`],
  [/^Unrecognized keys?: (.+)$/, (m) => `has parts the service does not accept (${m[1]})`],
  // The service's own phrases that read poorly on their own or name internals.
  [/^must be a valid e-mail address$/, () => FORMATS['email address']],
  [/^must be an absolute URL$/, () => FORMATS.URL],
  [
    /^must be an https: URL(?: \((.+)\))?$/,
    (m) => `must start with https://${m[1] ? ` (${m[1]})` : ''}`,
  ],
  [/^duplicates signees\.(\d+)\.email$/, (m) => `is the same as signee ${Number(m[1]) + 1}’s`],
  [
    /^is already the e-mail of signee \S+ \((.*)\)$/,
    (m) => `is already used by ${m[1]}, another signee`,
  ],
];

// Phrases that continue the field's name ("must …", "is …"): the label goes in front.
const PREDICATE =
  /^(must|is|are|has|have|may|can|cannot|needs|should|does|do|contains|duplicates|was)\b/;

const sentence = (text: string) => {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
};

// "Reminder cooldown (minutes)" reads "Reminder cooldown must be at least 15."
const labelForSentence = (label: string) => label.replace(/\s*\([^)]*\)\s*$/, '').trim();

// Whole-message rewrites that do not name the field.
const STANDALONE: Rule[] = [
  [/^a PDF file part named "file" is required$/, () => 'Choose a PDF file to upload.'],
  [/^exactly one file is accepted\b.*$/, () => 'Choose exactly one PDF file.'],
  [
    /^is the folder itself or a folder inside it$/,
    () => 'A folder cannot go inside itself or a folder inside it.',
  ],
];

/**
 * A 422 message as a sentence with the field's label: "Invalid email address" next to
 * "E-mail" becomes "E-mail must be a valid e-mail address like name@example.com." Messages
 * that are already sentences are kept (with a full stop), so applying it twice changes nothing.
 */
export function readableFieldMessage(label: string, message: string): string {
  const raw = message.trim();
  for (const [pattern, rewrite] of STANDALONE) {
    const m = pattern.exec(raw);
    if (m) return rewrite(m);
  }
  const name = labelForSentence(label) || 'This field';
  for (const [pattern, rewrite] of RULES) {
    const m = pattern.exec(raw);
    if (m) return sentence(`${name} ${rewrite(m)}`);
  }
  if (PREDICATE.test(raw)) return sentence(`${name} ${raw}`);
  return sentence(raw || `${name} is not valid`);
}

// The dashboard's names for the API's properties, where the property name is not one.
const NAMES: Record<string, string> = {
  email: 'E-mail',
  url: 'Callback URL',
  file: 'PDF file',
  signingMessage: 'Message to the signees',
  emailLanguage: 'E-mail language',
  signingOrder: 'Order',
  signingOrderEnabled: 'Signing order',
  signingGroupId: 'Signing group',
  reminderCooldownMinutes: 'Reminder cooldown',
  invitationEmails: 'Invitation e-mails',
  signeeEvents: 'Signee events',
  parentId: 'Parent folder',
  folderId: 'Folder',
  tenantId: 'Workspace',
};

// camelCase as words: "signingGroupsEnabled" -> "signing groups enabled".
const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
const nameOf = (key: string) => NAMES[key] ?? sentence(words(key)).slice(0, -1);

/**
 * A label for an error path no form field claims: `body.signingMessage` is "Message to the
 * signees", `signees.1.email` "Signee 2 e-mail", `signees.0` "Signee 1".
 */
export function labelOfPath(path: string): string {
  const parts = path.split('.').filter((p) => p !== '');
  if (['body', 'querystring', 'params', 'headers'].includes(parts[0] ?? '')) parts.shift();
  if (parts.length === 0) return 'The request';
  const [head, index, ...rest] = parts;
  if (index !== undefined && /^\d+$/.test(index)) {
    const item = `${sentence(words(head).replace(/s$/, '')).slice(0, -1)} ${Number(index) + 1}`;
    if (rest.length === 0) return item;
    const tail = nameOf(rest[rest.length - 1]);
    // "E-mail" keeps its capital inside a label only where it begins one.
    return `${item} ${tail.charAt(0).toLowerCase()}${tail.slice(1)}`;
  }
  return nameOf(parts[parts.length - 1]);
}
