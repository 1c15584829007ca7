import type { FieldError } from '../shared/http.js';
import { fieldError } from './api.js';
import { RoleSelect, type SigneeRole } from './role-select.js';
import { TextField } from './ui.js';

/**
 * The order number as the API takes it: empty is none, a whole number as a number, anything
 * else as typed, so the service's own rule explains it next to the field.
 */
export function orderValue(text: string): number | null | string {
  if (text.trim() === '') return null;
  return /^\d+$/.test(text.trim()) ? Number(text) : text;
}

/** A draft signee's inputs as the editor holds them. */
export type SigneeValues = { name: string; email: string; order: string; role: SigneeRole };

/**
 * A signee's name, e-mail, (with a signing order) order number and role, each with its 422
 * message.
 */
export function SigneeInputs(props: {
  values: SigneeValues;
  onChange: (values: SigneeValues) => void;
  ordered: boolean;
  errors: FieldError[];
}) {
  const { values, onChange, errors } = props;
  return (
    <div className="signee-inputs">
      <TextField
        label="Name"
        value={values.name}
        maxLength={200}
        onChange={(e) => onChange({ ...values, name: e.target.value })}
        error={fieldError(errors, 'name')}
      />
      <TextField
        label="E-mail"
        type="email"
        value={values.email}
        maxLength={254}
        onChange={(e) => onChange({ ...values, email: e.target.value })}
        error={fieldError(errors, 'email')}
      />
      {props.ordered && (
        <TextField
          label="Order"
          inputMode="numeric"
          className="narrow"
          value={values.order}
          onChange={(e) => onChange({ ...values, order: e.target.value })}
          error={fieldError(errors, 'signingOrder')}
        />
      )}
      <RoleSelect
        label="Role"
        value={values.role}
        onChange={(role) => onChange({ ...values, role })}
        error={fieldError(errors, 'role')}
      />
    </div>
  );
}
