import type { FieldError } from '../shared/http.js';
import { fieldError } from './api.js';
import { TextField } from './ui.js';
import { RoleSelect, ROLES_HINT, type SigneeRole } from './role-select.js';

/**
 * A role as its form holds it: `id` once saved, the order as typed, and the recipient role of
 * whoever fills it (`role`: signer, approver or cc).
 */
export type RoleRow = { key: string; id?: string; name: string; order: string; role: SigneeRole };

let nextKey = 1;

/** An empty role row for the form: a signer. */
export const emptyRole = (): RoleRow => ({
  key: `role-${nextKey++}`,
  name: '',
  order: '',
  role: 'signer',
});

/**
 * Error paths in one form whatever the service's check gave them: `signees[0].email`,
 * `body.signees.0.email` and `template.roles.0.name` become `signees.0.email` and
 * `roles.0.name`, the paths the template forms' fields claim; messages that name a path too.
 */
export function plainErrors(errors: FieldError[]): FieldError[] {
  const plain = (text: string) =>
    text
      .replace(/\[(\d+)\]/g, '.$1')
      .replace(/^body\./, '')
      .replace(/^template\./, '');
  return errors.map((e) => ({
    path: plain(e.path),
    message: e.message.replace(/\[(\d+)\]/g, '.$1'),
  }));
}

/** The order number as the API takes it: empty is none, a whole number as a number. */
export function orderOf(text: string): number | undefined {
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/**
 * The roles of a template: one text box per role (and its order number when the template
 * invites in order), what whoever fills it does (signer, approver, cc), with Remove and
 * **Add a role**. At least one role stays.
 */
export function RolesFieldset(props: {
  roles: RoleRow[];
  onChange: (roles: RoleRow[]) => void;
  ordered: boolean;
  errors: FieldError[];
  hint?: string;
}) {
  const { roles, onChange, errors } = props;
  const update = (key: string, patch: Partial<RoleRow>) =>
    onChange(roles.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const listError = fieldError(errors, 'roles', 'Roles');
  return (
    <fieldset className="signees">
      <legend>Roles</legend>
      <p className="field-hint">
        {props.hint ??
          'Who signs, named by their part in the contract (Client, Tenant, Witness): each document made from the template names a person for each role.'}{' '}
        {ROLES_HINT}
      </p>
      {listError && (
        <p className="field-error" role="alert">
          {listError}
        </p>
      )}
      {roles.map((role, i) => (
        <div key={role.key} className={`role-row${props.ordered ? ' ordered' : ''}`}>
          <TextField
            label={`Role ${i + 1}`}
            value={role.name}
            maxLength={200}
            onChange={(e) => update(role.key, { name: e.target.value })}
            error={
              fieldError(errors, `roles.${i}.name`, `Role ${i + 1}`) ??
              fieldError(errors, `roles.${i}`, `Role ${i + 1}`)
            }
          />
          {props.ordered && (
            <TextField
              label={`Role ${i + 1} order`}
              inputMode="numeric"
              className="narrow"
              value={role.order}
              onChange={(e) => update(role.key, { order: e.target.value })}
              error={fieldError(errors, `roles.${i}.signingOrder`, `Role ${i + 1} order`)}
            />
          )}
          <RoleSelect
            label={`Role ${i + 1} takes part as`}
            value={role.role}
            onChange={(value) => update(role.key, { role: value })}
            error={fieldError(errors, `roles.${i}.role`, `Role ${i + 1} takes part as`)}
          />
          {roles.length > 1 && (
            <button
              type="button"
              className="button secondary small"
              aria-label={`Remove role ${i + 1}`}
              onClick={() => onChange(roles.filter((r) => r.key !== role.key))}
            >
              Remove
            </button>
          )}
        </div>
      ))}
      <button
        type="button"
        className="button secondary small"
        onClick={() => onChange([...roles, emptyRole()])}
      >
        Add a role
      </button>
    </fieldset>
  );
}

/** The role error paths the roles fieldset shows, for `otherErrors`. */
export function roleErrorPaths(roles: RoleRow[]): string[] {
  return [
    'roles',
    ...roles.flatMap((_, i) => [
      `roles.${i}`,
      `roles.${i}.name`,
      `roles.${i}.signingOrder`,
      `roles.${i}.role`,
    ]),
  ];
}
