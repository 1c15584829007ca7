import { useState, type FormEvent } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import type { FieldError } from '../shared/http.js';
import { asApiError, fieldError, otherErrors } from './api.js';
import { call } from './dashboard-api.js';
import { handOver } from './document-handover.js';
import { navigate } from './router.js';
import { LANGUAGES } from './settings-section.js';
import { prefillLabels, type PrefillLabel } from './template-csv.js';
import { plainErrors } from './template-roles.js';
import { withRole } from './role-select.js';
import type { EmailLanguage } from './types.js';
import { ErrorMessage, SelectField, TextField } from './ui.js';

type Person = { name: string; email: string; language: EmailLanguage | '' };
/** A prefill as typed: text or a number, a dropdown's or radio's option, `true`/`false` for a checkbox; '' is none. */
type Prefill = Record<string, string>;

/**
 * "Use template": a person (name, e-mail, language) for each role and a value for each labelled
 * field that can be prefilled, then **Create draft** or **Create and send**
 * (`POST /api/templates/{id}/documents`). The new document's page opens, with the invitations'
 * delivery results after a send.
 */
export function UseTemplateForm(props: { template: Api.Template; fields: Api.TemplateField[] }) {
  const { template } = props;
  const labels = prefillLabels(props.fields);
  const [name, setName] = useState('');
  const [people, setPeople] = useState<Person[]>(() =>
    template.roles.map(() => ({ name: '', email: '', language: '' })),
  );
  const [prefill, setPrefill] = useState<Prefill>({});
  const [busy, setBusy] = useState<'draft' | 'send' | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  // Roles may have changed since the form was drawn: one person per role, always.
  const rows = template.roles.map((_, i) => people[i] ?? { name: '', email: '', language: '' });
  const update = (i: number, patch: Partial<Person>) =>
    setPeople(rows.map((p, j) => (j === i ? { ...p, ...patch } : p)));

  async function create(send: boolean) {
    setBusy(send ? 'send' : 'draft');
    setErrors([]);
    setFailure(null);
    try {
      const values: Record<string, string | boolean> = {};
      for (const l of labels) {
        const v = prefill[l.label] ?? '';
        if (v === '') continue;
        values[l.label] = l.type === 'checkbox' ? v === 'true' : v;
      }
      const result = await call('POST /api/templates/{templateId}/documents', {
        params: { templateId: template.id },
        json: {
          ...(name.trim() ? { name: name.trim() } : {}),
          signees: rows.map((p, role) => ({
            role,
            name: p.name,
            email: p.email,
            ...(p.language ? { language: p.language } : {}),
          })),
          ...(Object.keys(values).length > 0 ? { prefill: values } : {}),
          send,
        },
      });
      handOver(result.document.id, {
        notice: send
          ? `Made from the template “${template.name}” and sent for signing.`
          : `Made from the template “${template.name}” as a draft.`,
        deliveries: result.deliveries ?? null,
      });
      navigate(`/app/documents/${result.document.id}`);
    } catch (err) {
      const e = asApiError(err);
      const plain = plainErrors(e.fieldErrors);
      setErrors(plain);
      // A refusal such as too few credits or a role without a signature field: its reason.
      if (e.code !== 'validation_failed' || plain.length === 0) {
        const reason = e.message.replace(/[.\s]*$/, '.');
        setFailure(`${send ? 'Not sent' : 'Not created'}: ${reason} Nothing was created.`);
      }
    } finally {
      setBusy(null);
    }
  }
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void create(false);
  }

  const roleLabel = (i: number) => template.roles[i].name;
  // The legend says what the role's person does when it is not signing.
  const roleLegend = (i: number) => withRole(template.roles[i].name, template.roles[i].role);
  const known = [
    'name',
    'send',
    ...rows.flatMap((_, i) =>
      ['', '.name', '.email', '.language', '.role'].map((k) => `signees.${i}${k}`),
    ),
    ...labels.map((l) => `prefill.${l.label}`),
  ];
  return (
    <section className="card" aria-labelledby="use-template">
      <h2 id="use-template">Use template</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <ErrorMessage error={failure} />
        {otherErrors(errors, known).map((e) => (
          <ErrorMessage key={e.path} error={e.message} />
        ))}
        {rows.map((person, i) => (
          <fieldset key={template.roles[i].id} className="signees">
            <legend>{roleLegend(i)}</legend>
            <div className="person-row">
              <TextField
                label={`${roleLabel(i)} name`}
                value={person.name}
                maxLength={200}
                autoComplete="off"
                onChange={(e) => update(i, { name: e.target.value })}
                error={fieldError(errors, `signees.${i}.name`, `${roleLabel(i)} name`)}
              />
              <TextField
                label={`${roleLabel(i)} e-mail`}
                type="email"
                value={person.email}
                maxLength={254}
                autoComplete="off"
                onChange={(e) => update(i, { email: e.target.value })}
                error={
                  fieldError(errors, `signees.${i}.email`, `${roleLabel(i)} e-mail`) ??
                  fieldError(errors, `signees.${i}`, roleLabel(i))
                }
              />
              <SelectField
                label={`${roleLabel(i)} language`}
                value={person.language}
                options={LANGUAGES}
                empty="The template’s language"
                onChange={(language) => update(i, { language })}
                error={fieldError(errors, `signees.${i}.language`, `${roleLabel(i)} language`)}
              />
            </div>
          </fieldset>
        ))}
        {labels.length > 0 && (
          <fieldset className="signees">
            <legend>Prefill</legend>
            <p className="field-hint">
              Values put in the labelled fields before the document goes out. Leave one empty to
              keep the field as placed.
            </p>
            {labels.map((l) => (
              <PrefillInput
                key={l.label}
                field={l}
                value={prefill[l.label] ?? ''}
                onChange={(v) => setPrefill((p) => ({ ...p, [l.label]: v }))}
                error={fieldError(errors, `prefill.${l.label}`, l.label)}
              />
            ))}
          </fieldset>
        )}
        <TextField
          label="Document name"
          hint={`Optional: “${template.name}” otherwise.`}
          value={name}
          maxLength={255}
          onChange={(e) => setName(e.target.value)}
          error={fieldError(errors, 'name', 'Document name')}
        />
        <div className="button-row">
          <button type="submit" className="button secondary" disabled={busy !== null}>
            {busy === 'draft' ? 'Creating…' : 'Create draft'}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={busy !== null}
            onClick={() => void create(true)}
          >
            {busy === 'send' ? 'Sending…' : 'Create and send'}
          </button>
        </div>
      </form>
    </section>
  );
}

// A text box for a text or number field; a choice for a dropdown or radio (its options) or a
// checkbox (ticked or not); the empty choice leaves the field as placed.
function PrefillInput(props: {
  field: PrefillLabel;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const { field } = props;
  if (field.type === 'text' || field.type === 'number') {
    return (
      <TextField
        label={field.label}
        inputMode={field.type === 'number' ? 'decimal' : undefined}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        error={props.error}
      />
    );
  }
  const choices =
    field.type === 'checkbox'
      ? [
          { value: 'true', label: 'Ticked' },
          { value: 'false', label: 'Not ticked' },
        ]
      : field.options.map((o) => ({ value: o, label: o }));
  return (
    <SelectField
      label={field.label}
      value={props.value}
      options={choices}
      empty="As placed"
      onChange={props.onChange}
      error={props.error}
    />
  );
}
