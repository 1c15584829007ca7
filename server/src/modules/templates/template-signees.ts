import type { FieldError } from '../../lib/errors.js';
import { MAX_SIGNEES, signeeInputSchema } from '../documents/documents.schemas.js';
import type { EmailLanguage } from '../mail/templates/invitation.js';
import { emailLanguages } from '../tenants/tenants.schemas.js';

/** A template's role, as signee inputs name it. */
export type TemplateRoleRef = { id: string; name: string };
/** One signee of a document made from a template, for the role at `roleIndex`. */
export type RoleSignee = {
  roleIndex: number;
  email: string;
  name: string;
  language: EmailLanguage | null;
};
/** Where an error about the `key` of the `index`-th signee input points. */
export type SigneePathOf = (index: number, key: string) => string;

// Quick-create's own rules for an e-mail and a name, so the two inputs cannot drift apart.
const emailAndName = signeeInputSchema.pick({ email: true, name: true });
const LANGUAGES: ReadonlySet<string> = new Set(emailLanguages);
const ROLE_INPUT = "must be the name of one of the template's roles or its 0-based index";

// A template's roles by name, built once per roles array: a bulk send checks thousands of rows
// against the same one. A roles array is read from the store and never changed afterwards.
const roleIndexes = new WeakMap<TemplateRoleRef[], Map<string, number>>();

function indexByName(roles: TemplateRoleRef[]): Map<string, number> {
  const cached = roleIndexes.get(roles);
  if (cached) return cached;
  const byName = new Map<string, number>();
  // Names are unique ignoring case (templates.schemas); the first would win otherwise.
  roles.forEach((role, i) => {
    const key = nameKey(role.name);
    if (!byName.has(key)) byName.set(key, i);
  });
  roleIndexes.set(roles, byName);
  return byName;
}

const nameKey = (name: string) => name.trim().toLowerCase();

/** Checks create-from-template's `signees` input against the template's roles. */
export function checkTemplateSignees(
  roles: TemplateRoleRef[],
  input: unknown, // the raw `signees` value from a JSON body
  path = 'signees', // error paths like `signees[2].role`, `signees[0].email`
  pathOf: SigneePathOf = (index, key) => `${path}[${index}].${key}`,
): { signees: RoleSignee[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!Array.isArray(input)) {
    errors.push({ path, message: 'must be an array of {role, email, name, language?}' });
    return { signees: [], errors };
  }
  if (input.length > MAX_SIGNEES) {
    errors.push({ path, message: `at most ${MAX_SIGNEES} signees` });
    return { signees: [], errors };
  }
  const signees: RoleSignee[] = [];
  // The input position that took each role, and each e-mail (lower case).
  const takenBy = new Map<number, number>();
  const emails = new Map<string, number>();
  input.forEach((element: unknown, i) => {
    const parsed = emailAndName.safeParse(element);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        errors.push({
          path: issue.path.length ? pathOf(i, issue.path.map(String).join('.')) : `${path}[${i}]`,
          message: issue.message,
        });
      }
    }
    if (typeof element !== 'object' || element === null) return;
    const { role, language } = element as { role?: unknown; language?: unknown };
    const roleIndex = resolveRole(roles, role);
    if (typeof roleIndex === 'string') {
      errors.push({ path: pathOf(i, 'role'), message: roleIndex });
    } else {
      const first = takenBy.get(roleIndex);
      if (first === undefined) {
        takenBy.set(roleIndex, i);
      } else {
        errors.push({
          path: pathOf(i, 'role'),
          message: `role ${roles[roleIndex].name} already has a signee (${pathOf(first, 'role')})`,
        });
      }
    }
    const lang = languageOf(language);
    if (lang === undefined) {
      errors.push({
        path: pathOf(i, 'language'),
        message: `must be one of ${emailLanguages.join(', ')}`,
      });
    }
    if (!parsed.success) return;
    // E-mails are unique within a document, ignoring case, in quick-create's words.
    const key = parsed.data.email.toLowerCase();
    const firstEmail = emails.get(key);
    if (firstEmail === undefined) {
      emails.set(key, i);
    } else {
      errors.push({
        path: pathOf(i, 'email'),
        message: `duplicates ${pathOf(firstEmail, 'email')}`,
      });
    }
    if (typeof roleIndex === 'number' && lang !== undefined) {
      signees.push({ roleIndex, email: parsed.data.email, name: parsed.data.name, language: lang });
    }
  });
  roles.forEach((role, i) => {
    if (!takenBy.has(i)) errors.push({ path, message: `role ${role.name} has no signee` });
  });
  if (errors.length > 0) return { signees: [], errors };
  signees.sort((a, b) => a.roleIndex - b.roleIndex);
  return { signees, errors };
}

/**
 * The index of the role a signee input names, or what is wrong. A number is a 0-based index; a
 * string is a name, even one made of digits ("numbers only" index): one meaning per input.
 */
function resolveRole(roles: TemplateRoleRef[], role: unknown): number | string {
  if (typeof role === 'number') {
    if (Number.isInteger(role) && role >= 0 && role < roles.length) return role;
    const last = roles.length - 1;
    return `role ${role} does not exist: a 0-based index goes from 0 to ${last}`;
  }
  if (typeof role !== 'string' || role.trim() === '') return ROLE_INPUT;
  const index = indexByName(roles).get(nameKey(role));
  if (index !== undefined) return index;
  return `no role named ${role.trim()}; the template's roles are ${roleList(roles)}`;
}

function roleList(roles: TemplateRoleRef[]): string {
  const shown = roles.slice(0, 10).map((role) => role.name);
  return roles.length > 10 ? `${shown.join(', ')} and ${roles.length - 10} more` : shown.join(', ');
}

/** A signee's language: null when not given, undefined when not one of ours (any case). */
function languageOf(language: unknown): EmailLanguage | null | undefined {
  if (language === undefined || language === null) return null;
  if (typeof language !== 'string') return undefined;
  const code = language.trim().toLowerCase();
  return LANGUAGES.has(code) ? (code as EmailLanguage) : undefined;
}
