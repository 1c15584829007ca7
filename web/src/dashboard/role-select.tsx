import type * as Api from '../../../server/src/api-types.js';
import { SelectField } from './ui.js';

/** What a signee is asked to do: sign, approve, or be copied. */
export type SigneeRole = Api.SigneeRole;

/** The roles in the order the pickers offer them. */
export const SIGNEE_ROLE_OPTIONS: readonly { value: SigneeRole; label: string }[] = [
  { value: 'signer', label: 'Signer' },
  { value: 'approver', label: 'Approver' },
  { value: 'cc', label: 'CC (copy only)' },
];

/** A role's short name, shown beside a signee or a template role that is not a signer. */
export const ROLE_NAMES: Record<SigneeRole, string> = {
  signer: 'Signer',
  approver: 'Approver',
  cc: 'CC',
};

/** A name with its role when that is not signer: "Legal (CC)". */
export function withRole(name: string, role: SigneeRole): string {
  return role === 'signer' ? name : `${name} (${ROLE_NAMES[role]})`;
}

/** What each role does, for the hint beside a list of signees. */
export const ROLES_HINT =
  'Signers sign. Approvers approve or reject in their turn, with no signature or field. CC recipients get no link: they receive the signed copy and are told if it is declined or cancelled.';

/**
 * A signee's (or a template role's) recipient role picker (decisions §12): `signer` by default,
 * `approver` or `cc`; the service's 422 at its path shows under it.
 */
export function RoleSelect(props: {
  label: string;
  value: SigneeRole;
  onChange: (role: SigneeRole) => void;
  error?: string;
}) {
  return (
    <div className="role-select">
      <SelectField
        label={props.label}
        value={props.value}
        options={SIGNEE_ROLE_OPTIONS}
        onChange={(role) => props.onChange(role || 'signer')}
        error={props.error}
      />
    </div>
  );
}
