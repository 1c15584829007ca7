import { useRef, useState, type FormEvent } from 'react';
import { ApiError, failureMessage } from '../shared/http.js';
import { DrawnSignature } from './drawn-signature.js';
import { signDocument, type SignatureInput, type SigningOutcome } from './signing-api.js';
import { TypedSignature } from './typed-signature.js';

type Mode = 'typed' | 'drawn';
type Errors = { typed?: string; drawn?: string; consent?: string; form?: string };

/** What can end a signing attempt other than a field error the signee can fix. */
export type SignResult =
  { kind: 'signed'; outcome: SigningOutcome } | { kind: 'not_your_turn' } | { kind: 'expired' };

// Server field paths look like `body.signature.text`; only the last segments matter here.
function errorsFromServer(err: ApiError): Errors {
  const errors: Errors = {};
  for (const { path, message } of err.fieldErrors) {
    if (path.includes('consent')) errors.consent = message;
    else if (path.includes('text')) errors.typed = message;
    else if (path.includes('image')) errors.drawn = message;
    else errors.form ??= message;
  }
  if (!errors.consent && !errors.typed && !errors.drawn && !errors.form) errors.form = err.message;
  return errors;
}

/** The consent checkbox, drawn or typed signature, and the `Sign document` button. */
export function SignForm(props: { token: string; onResult: (result: SignResult) => void }) {
  const { token, onResult } = props;
  const [mode, setMode] = useState<Mode>('typed');
  const [typed, setTyped] = useState('');
  const [drawn, setDrawn] = useState<string | null>(null);
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const typedRef = useRef<HTMLInputElement>(null);
  const consentRef = useRef<HTMLInputElement>(null);
  const drawRadioRef = useRef<HTMLInputElement>(null);
  const formErrorRef = useRef<HTMLParagraphElement>(null);

  const focusFirstError = (e: Errors) => {
    if (e.typed) typedRef.current?.focus();
    else if (e.drawn) drawRadioRef.current?.focus();
    else if (e.consent) consentRef.current?.focus();
    else if (e.form) formErrorRef.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found: Errors = {};
    if (mode === 'typed' && !typed.trim()) found.typed = 'Type your full name to sign.';
    if (mode === 'drawn' && !drawn)
      found.drawn = 'Draw your signature in the box, or choose “Type”.';
    if (!consent) found.consent = 'Tick this box to agree to sign electronically.';
    setErrors(found);
    if (Object.keys(found).length > 0) {
      // Wait for the messages to render so focus lands on a field that already describes them.
      requestAnimationFrame(() => focusFirstError(found));
      return;
    }
    const signature: SignatureInput =
      mode === 'typed' ? { type: 'typed', text: typed.trim() } : { type: 'drawn', image: drawn! };
    setBusy(true);
    try {
      const outcome = await signDocument(token, signature);
      onResult({ kind: 'signed', outcome });
    } catch (err) {
      setBusy(false);
      const apiError = err instanceof ApiError ? err : null;
      if (apiError?.code === 'not_your_turn') return onResult({ kind: 'not_your_turn' });
      if (apiError?.status === 410) return onResult({ kind: 'expired' });
      const serverErrors: Errors =
        apiError?.status === 422
          ? errorsFromServer(apiError)
          : { form: failureMessage('Signing', apiError) };
      setErrors(serverErrors);
      requestAnimationFrame(() => focusFirstError(serverErrors));
    }
  };

  return (
    <form className="sign-form" onSubmit={(e) => void submit(e)} noValidate>
      <fieldset className="choice" disabled={busy}>
        <legend className="field-label">How do you want to sign?</legend>
        <div className="segmented">
          <label className="segment">
            <input
              type="radio"
              name="signature-mode"
              value="typed"
              checked={mode === 'typed'}
              onChange={() => setMode('typed')}
            />
            <span>Type</span>
          </label>
          <label className="segment">
            <input
              ref={drawRadioRef}
              type="radio"
              name="signature-mode"
              value="drawn"
              checked={mode === 'drawn'}
              onChange={() => setMode('drawn')}
            />
            <span>Draw</span>
          </label>
        </div>
      </fieldset>

      {/* Both stay mounted so switching back and forth never loses a drawing or a name. */}
      <div hidden={mode !== 'typed'}>
        <TypedSignature
          value={typed}
          onChange={(v) => {
            setTyped(v);
            if (errors.typed) setErrors({ ...errors, typed: undefined });
          }}
          error={errors.typed ?? null}
          disabled={busy}
          inputRef={typedRef}
        />
      </div>
      <div hidden={mode !== 'drawn'}>
        <DrawnSignature
          onChange={(image) => {
            setDrawn(image);
            if (image && errors.drawn) setErrors((e) => ({ ...e, drawn: undefined }));
          }}
          error={errors.drawn ?? null}
          disabled={busy}
        />
      </div>

      <div className={`consent${errors.consent ? ' invalid' : ''}`}>
        <input
          ref={consentRef}
          id="consent"
          type="checkbox"
          checked={consent}
          disabled={busy}
          aria-invalid={errors.consent ? true : undefined}
          aria-describedby={errors.consent ? 'consent-error' : undefined}
          onChange={(e) => {
            setConsent(e.target.checked);
            if (e.target.checked && errors.consent) setErrors({ ...errors, consent: undefined });
          }}
        />
        <label htmlFor="consent">
          I agree to sign electronically, and that my electronic signature is as binding as a
          handwritten one.
        </label>
      </div>
      {errors.consent && (
        <p className="field-error" id="consent-error">
          {errors.consent}
        </p>
      )}

      <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
        {busy ? 'Signing…' : 'Sign document'}
      </button>
      {errors.form && (
        <p className="form-error" role="alert" tabIndex={-1} ref={formErrorRef}>
          {errors.form}
        </p>
      )}
    </form>
  );
}
