import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../shared/http.js';
import { DrawnSignature } from './drawn-signature.js';
import type { FieldFilling, Mark } from './field-filling.js';
import { signDocument, type SignatureInput, type SigningOutcome } from './signing-api.js';
import { TypedSignature } from './typed-signature.js';
import { UploadedSignature } from './uploaded-signature.js';
import { format, useSpeech, type Words } from './i18n.js';
import { problemText } from './problem-text.js';

type Mode = 'typed' | 'drawn' | 'uploaded';
type Errors = {
  typed?: string;
  drawn?: string;
  uploaded?: string;
  initials?: string;
  consent?: string;
  form?: string;
};

/** What can end a signing attempt other than a field error the signee can fix. */
export type SignResult =
  { kind: 'signed'; outcome: SigningOutcome } | { kind: 'not_your_turn' } | { kind: 'expired' };

// Server field paths look like `body.signature.text`; only the last segments matter here. The
// service words its messages in English: the signee reads the page's own, in their language.
function errorsFromServer(err: ApiError, t: Words, mode: Mode): Errors {
  const errors: Errors = {};
  for (const { path } of err.fieldErrors) {
    if (path.includes('consent')) errors.consent = t.consentRequired;
    else if (path.includes('initials')) errors.initials = t.valueRejected;
    else if (path.includes('text')) errors.typed = t.valueRejected;
    else if (path.includes('image') && mode === 'uploaded') errors.uploaded = t.valueRejected;
    else if (path.includes('image')) errors.drawn = t.valueRejected;
    else errors.form ??= t.valueRejected;
  }
  if (!errors.consent && !errors.typed && !errors.drawn && !errors.uploaded && !errors.form) {
    errors.form = problemText(t, err);
  }
  return errors;
}

/** The fields on the pages, when the document has any: their state and the initials to apply. */
export type FormFields = {
  filling: FieldFilling;
  /** The initials initials fields show; only asked for when there are such fields. */
  initials: string;
  onInitialsChange: (initials: string) => void;
  /** Moves focus to a field on the pages. */
  focusField: (id: string) => void;
};

/**
 * The consent checkbox, drawn or typed signature, and the `Sign document` button; with fields,
 * the initials and how many required fields are left (the button waits for none).
 */
export function SignForm(props: {
  token: string;
  onResult: (result: SignResult) => void;
  /** Told the adopted signature as it changes (null while there is none). */
  onMarkChange?: (mark: Mark | null) => void;
  fields?: FormFields;
}) {
  const { token, onResult, onMarkChange, fields } = props;
  const { t } = useSpeech();
  const [mode, setMode] = useState<Mode>('typed');
  const [typed, setTyped] = useState('');
  const [drawn, setDrawn] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const typedRef = useRef<HTMLInputElement>(null);
  const hasInitials = fields?.filling.fields.some((f) => f.type === 'initials') ?? false;
  const left = fields?.filling.left ?? [];

  useEffect(() => {
    const text = typed.trim();
    onMarkChange?.(
      mode === 'typed'
        ? text
          ? { type: 'typed', text }
          : null
        : mode === 'uploaded'
          ? uploaded
            ? { type: 'uploaded', image: uploaded }
            : null
          : drawn
            ? { type: 'drawn', image: drawn }
            : null,
    );
  }, [mode, typed, drawn, uploaded, onMarkChange]);
  const consentRef = useRef<HTMLInputElement>(null);
  const drawRadioRef = useRef<HTMLInputElement>(null);
  const uploadRadioRef = useRef<HTMLInputElement>(null);
  const formErrorRef = useRef<HTMLParagraphElement>(null);

  const focusFirstError = (e: Errors) => {
    if (e.typed) typedRef.current?.focus();
    else if (e.drawn) drawRadioRef.current?.focus();
    else if (e.uploaded) document.getElementById('uploaded-signature')?.focus();
    else if (e.initials) document.getElementById('initials')?.focus();
    else if (e.consent) consentRef.current?.focus();
    else if (e.form) formErrorRef.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found: Errors = {};
    if (mode === 'typed' && !typed.trim()) found.typed = t.typeRequired;
    if (mode === 'drawn' && !drawn) found.drawn = t.drawRequired;
    if (mode === 'uploaded' && !uploaded) found.uploaded = t.uploadRequired;
    if (hasInitials && !fields!.initials.trim()) found.initials = t.initialsRequired;
    if (!consent) found.consent = t.consentRequired;
    setErrors(found);
    if (Object.keys(found).length > 0) {
      // Wait for the messages to render so focus lands on a field that already describes them.
      requestAnimationFrame(() => focusFirstError(found));
      return;
    }
    const signature: SignatureInput =
      mode === 'typed'
        ? { type: 'typed', text: typed.trim() }
        : mode === 'uploaded'
          ? { type: 'uploaded', image: uploaded! }
          : { type: 'drawn', image: drawn! };
    setBusy(true);
    try {
      const outcome = await signDocument(token, {
        signature,
        ...(fields
          ? {
              fields: fields.filling.submitted,
              ...(hasInitials ? { initials: { type: 'typed', text: fields.initials.trim() } } : {}),
            }
          : {}),
      });
      onResult({ kind: 'signed', outcome });
    } catch (err) {
      setBusy(false);
      const apiError = err instanceof ApiError ? err : null;
      if (apiError?.code === 'not_your_turn') return onResult({ kind: 'not_your_turn' });
      if (apiError?.status === 410) return onResult({ kind: 'expired' });
      const serverErrors: Errors =
        apiError?.status === 422
          ? errorsFromServer(apiError, t, mode)
          : { form: problemText(t, apiError) };
      setErrors(serverErrors);
      requestAnimationFrame(() => focusFirstError(serverErrors));
    }
  };

  return (
    <form className="sign-form" onSubmit={(e) => void submit(e)} noValidate>
      <fieldset className="choice" disabled={busy}>
        <legend className="field-label">{t.howToSign}</legend>
        <div className="segmented">
          <label className="segment">
            <input
              type="radio"
              name="signature-mode"
              value="typed"
              checked={mode === 'typed'}
              onChange={() => setMode('typed')}
            />
            <span>{t.type}</span>
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
            <span>{t.draw}</span>
          </label>
          <label className="segment">
            <input
              ref={uploadRadioRef}
              type="radio"
              name="signature-mode"
              value="uploaded"
              checked={mode === 'uploaded'}
              onChange={() => setMode('uploaded')}
            />
            <span>{t.upload}</span>
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
      <div hidden={mode !== 'uploaded'}>
        <UploadedSignature
          onChange={(image) => {
            setUploaded(image);
            if (image && errors.uploaded) setErrors((e) => ({ ...e, uploaded: undefined }));
          }}
          error={errors.uploaded ?? null}
          disabled={busy}
        />
      </div>

      {hasInitials && fields && (
        <div className="field">
          <label className="field-label" htmlFor="initials">
            {t.yourInitials}
          </label>
          <input
            id="initials"
            className={`text-input initials-input${errors.initials ? ' invalid' : ''}`}
            type="text"
            maxLength={12}
            spellCheck={false}
            value={fields.initials}
            disabled={busy}
            aria-invalid={errors.initials ? true : undefined}
            aria-describedby={errors.initials ? 'initials-error' : undefined}
            onChange={(e) => {
              fields.onInitialsChange(e.target.value);
              if (errors.initials) setErrors({ ...errors, initials: undefined });
            }}
          />
          {errors.initials && (
            <p className="field-error" id="initials-error">
              {errors.initials}
            </p>
          )}
        </div>
      )}

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
        <label htmlFor="consent">{t.consent}</label>
      </div>
      {errors.consent && (
        <p className="field-error" id="consent-error">
          {errors.consent}
        </p>
      )}

      {fields && fields.filling.fields.length > 0 && (
        <div className={`fields-left${left.length === 0 ? ' done' : ''}`}>
          <p role="status" id="fields-left">
            {left.length === 0
              ? t.allFilled
              : left.length === 1
                ? t.fieldsLeftOne
                : format(t.fieldsLeftMany, { n: left.length })}
          </p>
          {left.length > 0 && (
            <button
              type="button"
              className="button secondary small"
              onClick={() => fields.focusField(left[0].id)}
            >
              {t.nextField}
            </button>
          )}
        </div>
      )}

      <button
        type="submit"
        className="button primary"
        disabled={busy || left.length > 0}
        aria-busy={busy}
        aria-describedby={fields && fields.filling.fields.length > 0 ? 'fields-left' : undefined}
      >
        {busy ? t.signing : t.signDocument}
      </button>
      {errors.form && (
        <p className="form-error" role="alert" tabIndex={-1} ref={formErrorRef}>
          {errors.form}
        </p>
      )}
    </form>
  );
}
