/** The longest a name, tenant name or document name is shown in an e-mail, in characters. */
export const DISPLAY_VALUE_MAX = 60;

/** Document names are longer by nature; still bounded. */
export const DOCUMENT_NAME_MAX = 100;

/**
 * A value somebody else chose (a user's or tenant's name, a document or signee name) made fit
 * to show, in quotes, inside an e-mail to a stranger: one line, no control, bidi or zero-width
 * characters, nothing a mail client would turn into a link (`://` becomes `[:]`, `www.` and a
 * dot between two words as in a domain get `[.]`, `@` gets `[@]`, `//` is one slash), and at most DISPLAY_VALUE_MAX characters ("…" ends a cut one).
 * Attackers put "URGENT: your account is locked, see https://…" into tenant names; this keeps
 * such text readable as the data it is, short, and not clickable. NFKC first, so full-width
 * look-alikes (`．`, `：`) are caught as the ASCII they stand for.
 */
export function displayValue(value: string, max = DISPLAY_VALUE_MAX): string {
  const line = value
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/:\/\//g, '[:]')
    .replace(/\/\/+/g, '/')
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}[.]`)
    .replace(/(?<=[\p{L}\p{N}])\.(?=[\p{L}\p{N}-]{2})/gu, '[.]')
    .replace(/@/g, '[@]');
  const chars = Array.from(line);
  if (chars.length <= max) return line;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}
