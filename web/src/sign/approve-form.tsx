import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../shared/http.js';
import { approveDocument } from './signing-api.js';
import { useSpeech } from './i18n.js';
import { problemText } from './problem-text.js';
import type { SignResult } from './sign-form.js';

/**
 * An approver's `Approve` button (decisions §12): no signature, no consent box, no field; the
 * approval is their turn in the signing order. `Reject` is the decline form below it.
 */
export function ApproveForm(props: { token: string; onResult: (result: SignResult) => void }) {
  const { token, onResult } = props;
  const { t } = useSpeech();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setError(null);
    setBusy(true);
    try {
      onResult({ kind: 'signed', outcome: await approveDocument(token) });
    } catch (err) {
      setBusy(false);
      const apiError = err instanceof ApiError ? err : null;
      if (apiError?.code === 'not_your_turn') return onResult({ kind: 'not_your_turn' });
      if (apiError?.status === 410) return onResult({ kind: 'expired' });
      setError(problemText(t, apiError));
      requestAnimationFrame(() => errorRef.current?.focus());
    }
  };

  return (
    <form className="sign-form" onSubmit={(e) => void submit(e)} noValidate>
      <p className="field-hint">{t.approveIntro}</p>
      <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
        {busy ? t.approving : t.approve}
      </button>
      {error && (
        <p className="form-error" role="alert" tabIndex={-1} ref={errorRef}>
          {error}
        </p>
      )}
    </form>
  );
}
