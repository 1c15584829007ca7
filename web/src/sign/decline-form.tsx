import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, failureMessage } from '../shared/http.js';
import { declineDocument, type SigningOutcome } from './signing-api.js';

/** Longest reason the API accepts. */
const MAX_REASON_LENGTH = 1000;

/** What can end a decline attempt other than an error shown in the form. */
export type DeclineResult =
  { kind: 'declined'; outcome: SigningOutcome } | { kind: 'not_your_turn' } | { kind: 'expired' };

/** The `Decline` button, which opens the `Reason` box and the `Confirm decline` button. */
export function DeclineForm(props: {
  token: string;
  senderName: string;
  onResult: (result: DeclineResult) => void;
}) {
  const { token, senderName, onResult } = props;
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const openButtonRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    // Move focus with the disclosure: into the box when it opens, back to the button when it closes.
    if (open) reasonRef.current?.focus();
    else if (wasOpen.current) openButtonRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const text = reason.trim();
    if (!text) {
      setError(`Write a short reason, so ${senderName} knows why you declined.`);
      reasonRef.current?.focus();
      return;
    }
    setError(null);
    setFormError(null);
    setBusy(true);
    try {
      onResult({ kind: 'declined', outcome: await declineDocument(token, text) });
    } catch (err) {
      setBusy(false);
      const apiError = err instanceof ApiError ? err : null;
      if (apiError?.code === 'not_your_turn') return onResult({ kind: 'not_your_turn' });
      if (apiError?.status === 410) return onResult({ kind: 'expired' });
      const fieldMessage = apiError?.fieldErrors.find((e) => e.path.includes('reason'))?.message;
      if (fieldMessage) {
        setError(fieldMessage);
        reasonRef.current?.focus();
      } else {
        setFormError(failureMessage('Declining', apiError));
      }
    }
  };

  if (!open) {
    return (
      <div className="decline">
        <p className="decline-intro">Don’t want to sign?</p>
        <button
          ref={openButtonRef}
          type="button"
          className="button secondary"
          aria-expanded="false"
          onClick={() => setOpen(true)}
        >
          Decline
        </button>
      </div>
    );
  }

  return (
    <form id="decline-form" className="decline" onSubmit={(e) => void submit(e)} noValidate>
      <div className="field">
        <label className="field-label" htmlFor="decline-reason">
          Reason
        </label>
        <p className="field-hint" id="decline-reason-hint">
          Declining ends this signing for everyone. {senderName} will see your reason.
        </p>
        <textarea
          ref={reasonRef}
          id="decline-reason"
          className={`text-input${error ? ' invalid' : ''}`}
          rows={4}
          maxLength={MAX_REASON_LENGTH}
          value={reason}
          disabled={busy}
          aria-invalid={error ? true : undefined}
          aria-describedby={`decline-reason-hint${error ? ' decline-reason-error' : ''}`}
          onChange={(e) => {
            setReason(e.target.value);
            if (error && e.target.value.trim()) setError(null);
          }}
        />
        <p className="field-count" aria-hidden="true">
          {reason.length}/{MAX_REASON_LENGTH}
        </p>
        {error && (
          <p className="field-error" id="decline-reason-error">
            {error}
          </p>
        )}
      </div>
      <div className="button-row">
        <button type="submit" className="button danger" disabled={busy} aria-busy={busy}>
          Confirm decline
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={busy}
          onClick={() => {
            setOpen(false);
            setError(null);
            setFormError(null);
          }}
        >
          Cancel
        </button>
      </div>
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
    </form>
  );
}
