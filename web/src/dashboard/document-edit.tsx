import { useState, type FormEvent } from 'react';
import type * as Api from '../../../server/src/api-types.js';
import { call } from './dashboard-api.js';
import { otherErrors } from './api.js';
import {
  SETTINGS_PATHS,
  SettingsFields,
  settingsChanges,
  settingsValues,
} from './settings-fields.js';
import type { Signee } from './types.js';
import { ROLES_HINT, withRole, type SigneeRole } from './role-select.js';
import { orderValue, SigneeInputs } from './signee-inputs.js';
import { ConfirmButton, ErrorMessage, StatusMessage } from './ui.js';
import { useSubmit } from './use-submit.js';

type Detail = Api.DocumentDetail;

/**
 * A draft's editor: its name, message, language and signing order, and its signees (change,
 * remove, add). Each save goes to the API at once and the page shows the document it answers.
 */
export function DraftEditor(props: { detail: Detail; onChanged: (detail: Detail) => void }) {
  return (
    <>
      <DraftSettings
        key={props.detail.document.id}
        detail={props.detail}
        onChanged={props.onChanged}
      />
      <DraftSignees detail={props.detail} onChanged={props.onChanged} />
    </>
  );
}

/** A draft's signees, each changed or removed on its own, and a form to add one. */
export function DraftSignees(props: { detail: Detail; onChanged: (detail: Detail) => void }) {
  const { document: doc, signees } = props.detail;
  return (
    <section className="card" aria-labelledby="signees">
      <h2 id="signees">Signees</h2>
      <p className="field-hint">
        Invitations go to these people when you send the document
        {doc.signingOrderEnabled ? ', in ascending order (equal numbers together)' : ''}.{' '}
        {ROLES_HINT}
      </p>
      <ol className="signee-editor">
        {signees.map((s, i) => (
          <li key={`${s.id}-${s.updatedAt}`}>
            <SigneeRow
              documentId={doc.id}
              signee={s}
              position={i + 1}
              ordered={doc.signingOrderEnabled === true}
              removable={signees.length > 1}
              onChanged={props.onChanged}
            />
          </li>
        ))}
      </ol>
      <AddSignee
        documentId={doc.id}
        ordered={doc.signingOrderEnabled === true}
        onChanged={props.onChanged}
      />
    </section>
  );
}

/**
 * A draft's name, message, e-mail language and signing order, saved together; `title` is the
 * section's heading ("Edit draft" by default).
 */
export function DraftSettings(props: {
  detail: Detail;
  onChanged: (detail: Detail) => void;
  title?: string;
}) {
  const doc = props.detail.document;
  const [values, setValues] = useState(() => settingsValues(doc));
  const [saved, setSaved] = useState(false);
  const save = useSubmit();
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    void save.submit(async () => {
      const json = settingsChanges(doc, values);
      if (Object.keys(json).length === 0) {
        setSaved(true);
        return;
      }
      const detail = await call('PATCH /api/documents/{documentId}', {
        params: { documentId: doc.id },
        json,
      });
      props.onChanged(detail);
      setSaved(true);
    });
  }
  return (
    <section className="card" aria-labelledby="edit-draft">
      <h2 id="edit-draft">{props.title ?? 'Edit draft'}</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        <SettingsFields
          values={values}
          onChange={setValues}
          errors={save.errors}
          words={{
            nameLabel: 'Document name',
            messageId: 'signing-message',
            messageHint: 'Shown in the invitation e-mail. Optional.',
            languageId: 'draft-language',
            orderHint: 'Invite the signees one group after another, by their order number.',
          }}
        />
        <button type="submit" className="button primary" disabled={save.busy}>
          Save changes
        </button>
        {otherErrors(save.errors, SETTINGS_PATHS).map((e) => (
          <ErrorMessage key={e.path} error={e.message} />
        ))}
        <ErrorMessage error={save.message} />
        {saved && <StatusMessage>Changes saved.</StatusMessage>}
      </form>
    </section>
  );
}

function SigneeRow(props: {
  documentId: string;
  signee: Signee;
  position: number;
  ordered: boolean;
  removable: boolean;
  onChanged: (detail: Detail) => void;
}) {
  const { signee } = props;
  const params = { documentId: props.documentId, signeeId: signee.id };
  const [name, setName] = useState(signee.name);
  const [email, setEmail] = useState(signee.email);
  const [order, setOrder] = useState(signee.signingOrder?.toString() ?? '');
  const [role, setRole] = useState<SigneeRole>(signee.role);
  const save = useSubmit();
  const [failure, setFailure] = useState<string | null>(null);
  const changed =
    name !== signee.name ||
    email !== signee.email ||
    role !== signee.role ||
    (props.ordered && orderValue(order) !== signee.signingOrder);
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void save.submit(async () => {
      const result = await call('PATCH /api/documents/{documentId}/signees/{signeeId}', {
        params,
        json: {
          name,
          email,
          role,
          ...(props.ordered ? { signingOrder: orderValue(order) as number | null } : {}),
        },
      });
      props.onChanged(result);
    });
  }
  return (
    <form className="signee-edit" onSubmit={onSubmit} noValidate>
      <fieldset className="plain">
        <legend className="signee-legend">
          Signee {props.position}: {withRole(signee.name, signee.role)}
        </legend>
        <SigneeInputs
          values={{ name, email, order, role }}
          onChange={(v) => {
            setName(v.name);
            setEmail(v.email);
            setOrder(v.order);
            setRole(v.role);
          }}
          ordered={props.ordered}
          errors={save.errors}
        />
        <div className="button-row">
          <button
            type="submit"
            className="button secondary small"
            aria-label={`Save signee ${props.position}`}
            disabled={save.busy || !changed}
          >
            Save signee
          </button>
          {props.removable && (
            <ConfirmButton
              label="Remove"
              accessibleLabel={`Remove ${signee.name} (${signee.email})`}
              question={`Remove ${signee.name} and the fields placed for them?`}
              confirmLabel="Yes, remove"
              onConfirm={async () => {
                setFailure(null);
                try {
                  await call('DELETE /api/documents/{documentId}/signees/{signeeId}', { params });
                  props.onChanged(
                    await call('GET /api/documents/{documentId}', {
                      params: { documentId: props.documentId },
                    }),
                  );
                } catch (err) {
                  setFailure((err as Error).message);
                }
              }}
            />
          )}
        </div>
        <ErrorMessage error={save.message ?? failure} />
      </fieldset>
    </form>
  );
}

function AddSignee(props: {
  documentId: string;
  ordered: boolean;
  onChanged: (detail: Detail) => void;
}) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [order, setOrder] = useState('');
  const [role, setRole] = useState<SigneeRole>('signer');
  const add = useSubmit();
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void add.submit(async () => {
      const signingOrder = orderValue(order);
      const result = await call('POST /api/documents/{documentId}/signees', {
        params: { documentId: props.documentId },
        json: {
          name,
          email,
          role,
          ...(props.ordered && signingOrder !== null
            ? { signingOrder: signingOrder as number }
            : {}),
        },
      });
      setName('');
      setEmail('');
      setOrder('');
      setRole('signer');
      props.onChanged(result);
    });
  }
  return (
    <form className="signee-edit add" onSubmit={onSubmit} noValidate>
      <fieldset className="plain">
        <legend className="signee-legend">Add a signee</legend>
        <SigneeInputs
          values={{ name, email, order, role }}
          onChange={(v) => {
            setName(v.name);
            setEmail(v.email);
            setOrder(v.order);
            setRole(v.role);
          }}
          ordered={props.ordered}
          errors={add.errors}
        />
        <button type="submit" className="button secondary small" disabled={add.busy}>
          Add signee
        </button>
        {otherErrors(add.errors, ['name', 'email', 'signingOrder', 'role']).map((e) => (
          <ErrorMessage key={e.path} error={e.message} />
        ))}
        <ErrorMessage error={add.message} />
      </fieldset>
    </form>
  );
}
