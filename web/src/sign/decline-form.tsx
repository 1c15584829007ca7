import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../shared/http.js';
import { declineDocument, type SigningOutcome } from './signing-api.js';
import { format, useSpeech } from './i18n.js';
import { problemText } from './problem-text.js';

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
  const { t } = useSpeech();
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
      setError(format(t.reasonRequired, { sender: senderName }));
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
      if (apiError?.fieldErrors.some((e) => e.path.includes('reason'))) {
        setError(t.valueRejected);
        reasonRef.current?.focus();
      } else {
        setFormError(problemText(t, apiError));
      }
    }
  };

  if (!open) {
    return (
      <div className="decline">
        <p className="decline-intro">{t.dontWant}</p>
        <button
          ref={openButtonRef}
          type="button"
          className="button secondary"
          aria-expanded="false"
          onClick={() => setOpen(true)}
        >
          {t.decline}
        </button>
      </div>
    );
  }

  return (
    <form id="decline-form" className="decline" onSubmit={(e) => void submit(e)} noValidate>
      <div className="field">
        <label className="field-label" htmlFor="decline-reason">
          {t.reason}
        </label>
        <p className="field-hint" id="decline-reason-hint">
          {format(t.reasonHint, { sender: senderName })}
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
          {t.confirmDecline}
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
          {t.cancel}
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
