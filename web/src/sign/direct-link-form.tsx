import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../shared/http.js';
import { format, useSpeech, type Words } from './i18n.js';
import { InputField } from './input-field.js';
import { problemText } from './problem-text.js';
import { RetryLaterError, submitDirectLink } from './signing-api.js';

/** How a direct link can end before the visitor reaches the signing page. */
export type DirectLinkGone = 'invalid' | 'disabled';

type Errors = { name?: string; email?: string; form?: string };

// The API's own limits on the two inputs (direct-links.schemas.ts).
const MAX_NAME = 200;
const MAX_EMAIL = 254;
// Only what a person can see is wrong; the service checks the rest and answers 422.
const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// A refusal turned into what the visitor reads next to an input or under the button.
function errorsOf(t: Words, err: ApiError | null, sender: string): Errors {
  const w = t.directLink;
  if (err instanceof RetryLaterError) {
    return {
      form: format(w.busy, { minutes: Math.max(1, Math.ceil(err.retryAfterSeconds / 60)) }),
    };
  }
  if (err?.status === 402) return { form: format(w.unavailable, { sender }) };
  if (err?.status === 422) {
    const found: Errors = {};
    for (const e of err.fieldErrors) {
      if (e.path.endsWith('email')) found.email = w.emailInvalid;
      else if (e.path.endsWith('name')) found.name = t.valueRejected;
    }
    if (found.name || found.email) return found;
  }
  return { form: problemText(t, err) };
}

/**
 * The visitor's name and e-mail (`Your name`, `Your e-mail`) and `Continue`: a document is made
 * for them and the browser goes on to its signing page, replacing this one in the history.
 */
export function DirectLinkForm(props: {
  token: string;
  senderName: string;
  onGone: (why: DirectLinkGone) => void;
}) {
  const { token, senderName, onGone } = props;
  const { t } = useSpeech();
  const w = t.directLink;
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [opening, setOpening] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const formErrorRef = useRef<HTMLParagraphElement>(null);

  const show = (found: Errors) => {
    setErrors(found);
    // Once the messages are on the page, so focus lands on a field that already describes them.
    requestAnimationFrame(() => {
      if (found.name) nameRef.current?.focus();
      else if (found.email) emailRef.current?.focus();
      else if (found.form) formErrorRef.current?.focus();
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const visitor = { name: name.trim(), email: email.trim() };
    const found: Errors = {};
    if (!visitor.name) found.name = w.nameRequired;
    if (!visitor.email) found.email = w.emailRequired;
    else if (!LOOKS_LIKE_EMAIL.test(visitor.email)) found.email = w.emailInvalid;
    if (found.name || found.email) return show(found);
    setErrors({});
    setBusy(true);
    try {
      const { signingUrl } = await submitDirectLink(token, visitor);
      setOpening(true);
      // Replaced, not pushed: going back must not offer the form again and make a second document.
      window.location.replace(signingUrl);
    } catch (err) {
      setBusy(false);
      const apiError = err instanceof ApiError ? err : null;
      if (apiError?.status === 404) return onGone('invalid');
      if (apiError?.status === 410) return onGone('disabled');
      show(errorsOf(t, apiError, senderName));
    }
  };

  return (
    <form className="direct-link-form" onSubmit={(e) => void submit(e)} noValidate>
      <InputField
        inputRef={nameRef}
        id="visitor-name"
        label={w.yourName}
        error={errors.name}
        type="text"
        autoComplete="name"
        maxLength={MAX_NAME}
        value={name}
        disabled={busy}
        onChange={(e) => setName(e.target.value)}
      />
      <InputField
        inputRef={emailRef}
        id="visitor-email"
        label={w.yourEmail}
        hint={w.emailHint}
        error={errors.email}
        type="email"
        inputMode="email"
        autoComplete="email"
        spellCheck={false}
        maxLength={MAX_EMAIL}
        value={email}
        disabled={busy}
        onChange={(e) => setEmail(e.target.value)}
      />
      <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
        {w.continue}
      </button>
      {opening && (
        <p className="direct-link-opening" role="status">
          {w.opening}
        </p>
      )}
      {errors.form && (
        <p className="form-error" role="alert" tabIndex={-1} ref={formErrorRef}>
          {errors.form}
        </p>
      )}
    </form>
  );
}
