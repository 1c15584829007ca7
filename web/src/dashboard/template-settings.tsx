import { useState, type FormEvent } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import { otherErrors } from './api.js';
import { call } from './dashboard-api.js';
import {
  orderOf,
  plainErrors,
  roleErrorPaths,
  RolesFieldset,
  type RoleRow,
} from './template-roles.js';
import {
  SETTINGS_PATHS,
  SettingsFields,
  settingsChanges,
  settingsValues,
} from './settings-fields.js';
import { ErrorMessage, StatusMessage } from './ui.js';
import { useSubmit } from './use-submit.js';

type Detail = Api.TemplateWithFields;

const rowsOf = (roles: Api.TemplateRole[]): RoleRow[] =>
  roles.map((r) => ({
    key: r.id,
    id: r.id,
    name: r.name,
    order: r.signingOrder?.toString() ?? '',
    role: r.role,
  }));

/**
 * A template's name, message, e-mail language, signing order and roles, saved together by
 * `PATCH /api/templates/{id}`: only what changed goes, and the roles as the whole new list. A
 * removed role takes its fields with it, so saving that asks first.
 */
export function TemplateSettings(props: { detail: Detail; onChanged: (detail: Detail) => void }) {
  const { template, fields } = props.detail;
  const [values, setValues] = useState(() => settingsValues(template));
  const { ordered } = values;
  const [roles, setRoles] = useState<RoleRow[]>(() => rowsOf(template.roles));
  const [saved, setSaved] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const save = useSubmit();

  const kept = new Set(roles.map((r) => r.id).filter(Boolean));
  const lostFields = fields.filter((f) => !kept.has(f.roleId)).length;
  const lostRoles = template.roles.filter((r) => !kept.has(r.id)).length;
  const rolesInput = roles.map((r) => ({
    ...(r.id ? { id: r.id } : {}),
    name: r.name.trim(),
    // Kept while the signing order is off too, so turning it on again finds the numbers.
    ...(orderOf(r.order) !== undefined ? { signingOrder: orderOf(r.order) } : {}),
    role: r.role,
  }));
  const rolesChanged =
    JSON.stringify(rolesInput) !==
    JSON.stringify(
      template.roles.map((r) => ({
        id: r.id,
        name: r.name,
        ...(r.signingOrder !== null ? { signingOrder: r.signingOrder } : {}),
        role: r.role,
      })),
    );

  function submit() {
    setSaved(false);
    setConfirming(false);
    void save.submit(async () => {
      const json: Api.TemplateEdit = {
        ...settingsChanges(template, values),
        ...(rolesChanged ? { roles: rolesInput } : {}),
      };
      if (Object.keys(json).length > 0) {
        const result = await call('PATCH /api/templates/{templateId}', {
          params: { templateId: template.id },
          json,
        });
        // New roles have ids now: the form holds them as saved.
        setRoles(rowsOf(result.template.roles));
        props.onChanged(result);
      }
      setSaved(true);
    });
  }
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (lostFields > 0 && !confirming) {
      setConfirming(true);
      return;
    }
    submit();
  }

  const errors = plainErrors(save.errors);
  return (
    <section className="card" aria-labelledby="template-settings">
      <h2 id="template-settings">Settings and roles</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <SettingsFields
          values={values}
          onChange={setValues}
          errors={errors}
          words={{
            nameLabel: 'Template name',
            messageId: 'template-message',
            messageHint: 'Shown in the invitation e-mail of every document made from it. Optional.',
            languageId: 'template-language',
            orderHint: 'Invite the roles one group after another, by their order number.',
          }}
        />
        <RolesFieldset
          roles={roles}
          onChange={(next) => {
            setRoles(next);
            setConfirming(false);
          }}
          ordered={ordered}
          errors={errors}
          hint="Renaming a role keeps its fields; removing one removes the fields placed for it."
        />
        {confirming ? (
          <span className="confirm" role="group" aria-label="Save and remove fields?">
            <span className="confirm-question">
              Saving removes {lostFields} {lostFields === 1 ? 'field' : 'fields'} placed for the
              removed {lostRoles === 1 ? 'role' : 'roles'}. Save?
            </span>
            <button type="submit" className="button danger small" autoFocus disabled={save.busy}>
              Yes, save
            </button>
            <button
              type="button"
              className="button secondary small"
              onClick={() => setConfirming(false)}
            >
              Keep editing
            </button>
          </span>
        ) : (
          <button type="submit" className="button primary" disabled={save.busy}>
            Save settings
          </button>
        )}
        {otherErrors(errors, [...SETTINGS_PATHS, ...roleErrorPaths(roles)]).map((e) => (
          <ErrorMessage key={e.path} error={e.message} />
        ))}
        <ErrorMessage error={save.message} />
        {saved && <StatusMessage>Settings saved.</StatusMessage>}
      </form>
    </section>
  );
}
