import { useId, useState, type FormEvent } from 'react';
import { call } from './dashboard-api.js';
import { fieldError, otherErrors } from './api.js';
import type { DocumentDetail } from '../../../server/src/api-types.js';
import type { SignetDocument } from './types.js';
import { ErrorMessage, Field, Time } from './ui.js';
import { useLoad } from './use-load.js';
import { useSubmit } from './use-submit.js';
import './workflow.css';

/** A deadline as `<input type="datetime-local">` holds it: the reader's local time, to the minute. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A document's deadline as a fact of its page: "Expires <time>", "No expiry" or, once it
 * passed, "Expired <time>". While the document is a draft or in process it can be set, moved or
 * removed (`PATCH … {expiresAt}`; null removes it); the service's 422 shows at the input.
 */
export function DocumentExpiry(props: {
  document: SignetDocument;
  onChanged: (detail: DocumentDetail) => void;
}) {
  const { document: doc } = props;
  const open = doc.status === 'draft' || doc.status === 'in_process';
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [missing, setMissing] = useState(false);
  const save = useSubmit();
  const id = useId();
  // A draft without its own deadline gets the tenant's default when it is sent: say which.
  const defaults = useLoad(async () => {
    if (doc.status !== 'draft' || doc.expiresAt) return null;
    const { settings } = await call('GET /api/tenants/{tenantId}/settings', {
      params: { tenantId: doc.tenantId },
    });
    return settings.expiryDays;
  }, [doc.status, doc.expiresAt, doc.tenantId]);

  const patch = (expiresAt: string | null, after: () => void) =>
    save.submit(async () => {
      const detail = await call('PATCH /api/documents/{documentId}', {
        params: { documentId: doc.id },
        json: { expiresAt },
      });
      props.onChanged(detail);
      after();
    });

  function start() {
    setValue(doc.expiresAt ? toLocalInput(doc.expiresAt) : '');
    setMissing(false);
    setEditing(true);
  }

  function onSave(event: FormEvent) {
    event.preventDefault();
    const at = new Date(value);
    setMissing(Number.isNaN(at.getTime()));
    if (Number.isNaN(at.getTime())) return;
    void patch(at.toISOString(), () => setEditing(false));
  }

  const expired = doc.cancelReason === 'expired';
  const error = missing
    ? 'Choose a date and time, or remove the expiry.'
    : fieldError(save.errors, 'expiresAt', 'Expiry');
  return (
    <div className={editing ? 'wide' : undefined}>
      <dt>Expiry</dt>
      <dd className="expiry">
        <span data-testid="expiry">
          {doc.expiresAt ? (
            <>
              {expired ? 'Expired' : 'Expires'} <Time value={doc.expiresAt} />
            </>
          ) : (
            'No expiry'
          )}
        </span>
        {!doc.expiresAt && defaults.data && (
          <span className="field-hint block">
            Unless you set one, sending gives it the workspace’s {defaults.data}{' '}
            {defaults.data === 1 ? 'day' : 'days'}.
          </span>
        )}
        {open && !editing && (
          <button type="button" className="button secondary small" onClick={start}>
            {doc.expiresAt ? 'Change expiry' : 'Set expiry'}
          </button>
        )}
        {editing && (
          <form className="expiry-form" onSubmit={onSave} noValidate>
            <Field
              id={id}
              label="Expires at"
              hint="Your local time. Still unsigned then, the document is cancelled."
              error={error}
            >
              {(control) => (
                <input
                  {...control}
                  type="datetime-local"
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                />
              )}
            </Field>
            <div className="button-row">
              <button type="submit" className="button primary small" disabled={save.busy}>
                Save expiry
              </button>
              {doc.expiresAt && (
                <button
                  type="button"
                  className="button secondary small"
                  disabled={save.busy}
                  onClick={() => void patch(null, () => setEditing(false))}
                >
                  Remove expiry
                </button>
              )}
              <button
                type="button"
                className="button secondary small"
                onClick={() => setEditing(false)}
              >
                Keep as is
              </button>
            </div>
          </form>
        )}
        <ErrorMessage error={save.message} />
        {otherErrors(save.errors, ['expiresAt']).map((e) => (
          <ErrorMessage key={e.path} error={e.message} />
        ))}
      </dd>
    </div>
  );
}
