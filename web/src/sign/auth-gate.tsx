import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../shared/http.js';
import { AuthError, requestCode, submitCode, type AuthRequired } from './auth-api.js';
import { AUTH_WORDS, type AuthWords } from './auth-words.js';
import { format, useSpeech, type Words } from './i18n.js';
import { InputField } from './input-field.js';
import { PageShell } from './page-shell.js';
import { problemText } from './problem-text.js';

/** How the gate can end other than by a verified link. */
export type AuthGone = 'invalid' | 'expired';

const LOCK_MINUTES = 15;
const minutes = (seconds: number | null, fallback: number) =>
  seconds === null ? fallback : Math.max(1, Math.ceil(seconds / 60));

// A refused code or send, as the signee reads it.
function messageOf(w: AuthWords, t: Words, err: unknown): string {
  if (err instanceof AuthError) {
    if (err.code === 'signee_auth_invalid') {
      if (err.remainingAttempts === 0) return format(w.locked, { minutes: LOCK_MINUTES });
      if (err.remainingAttempts === 1) return w.wrongCodeLast;
      return format(w.wrongCode, { n: err.remainingAttempts ?? '?' });
    }
    if (err.code === 'signee_auth_locked') {
      return format(w.locked, { minutes: minutes(err.retryAfterSeconds, LOCK_MINUTES) });
    }
    if (err.code === 'rate_limited') {
      return format(w.sendLimited, { minutes: minutes(err.retryAfterSeconds, 1) });
    }
  }
  return problemText(t, err instanceof ApiError ? err : null);
}

/**
 * What a link that asks for verification shows instead of its document: the access code's
 * input, or `Send me a code` and then the e-mailed code's. Nothing of the document is known
 * here (the service tells nothing before); a right code reloads the page's session.
 */
export function AuthGate(props: {
  token: string;
  gate: AuthRequired;
  onVerified: () => void;
  onGone: (why: AuthGone) => void;
}) {
  const { token, gate, onVerified, onGone } = props;
  const { t, language } = useSpeech();
  const w = AUTH_WORDS[language];
  const emailed = gate.method === 'email_otp';
  const [sent, setSent] = useState(false);
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  // Its number changes with every refusal, so the same message shown again is read again.
  const [formError, setFailure] = useState<{ text: string; n: number } | null>(null);
  const setFormError = (text: string | null) =>
    setFailure((was) => (text === null ? null : { text, n: (was?.n ?? 0) + 1 }));
  const [busy, setBusy] = useState<'send' | 'check' | 'open' | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    document.title = t.pageTitleDefault;
  }, [t]);
  // Focus goes to a refusal once it is on the page, so a screen reader reads it out.
  useEffect(() => {
    if (formError) errorRef.current?.focus();
  }, [formError]);
  // The countdown to the next send, once a second while there is one.
  useEffect(() => {
    if (resendAt <= now) return;
    const timer = window.setTimeout(() => setNow(Date.now()), 1000);
    return () => window.clearTimeout(timer);
  }, [resendAt, now]);

  // Once the code's input appears, the signee types into it.
  useEffect(() => {
    if (sent) inputRef.current?.focus();
  }, [sent]);

  const fail = (err: unknown) => {
    if (err instanceof ApiError && err.status === 404) return onGone('invalid');
    if (err instanceof ApiError && err.status === 410) return onGone('expired');
    setFormError(messageOf(w, t, err));
  };

  const send = async () => {
    if (busy) return;
    setBusy('send');
    setFormError(null);
    try {
      const answer = await requestCode(token);
      setSent(true);
      setResendAt(Date.parse(answer.resendAfter));
      setNow(Date.now());
    } catch (err) {
      fail(err);
    } finally {
      setBusy(null);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const given = emailed ? code.replace(/\s+/g, '') : code;
    const problem = !given
      ? w.codeRequired
      : emailed && !/^\d{6}$/.test(given)
        ? w.codeFormat
        : null;
    setFieldError(problem);
    setFormError(null);
    if (problem) return inputRef.current?.focus();
    setBusy('check');
    try {
      await submitCode(token, given);
      setBusy('open');
      onVerified();
    } catch (err) {
      setBusy(null);
      setCode('');
      fail(err);
    }
  };

  const waitSeconds = Math.ceil((resendAt - now) / 1000);
  return (
    <PageShell>
      <section className="direct-link auth-gate" aria-labelledby="auth-title">
        <div className="intro">
          <p className="eyebrow">{t.eyebrow}</p>
          <h1 id="auth-title" className="document-title">
            {w.title}
          </h1>
          <p className="lede">{emailed ? w.emailLede : w.accessCodeLede}</p>
        </div>
        {gate.identityRefused && <p className="status status-warning">{w.identityRefused}</p>}
        {emailed && !sent ? (
          <button
            type="button"
            className="button primary"
            onClick={() => void send()}
            disabled={busy !== null}
            aria-busy={busy === 'send'}
          >
            {busy === 'send' ? w.sending : w.sendCode}
          </button>
        ) : (
          <form className="direct-link-form" onSubmit={(e) => void submit(e)} noValidate>
            {emailed && (
              <p className="status" role="status">
                {w.codeSent}
              </p>
            )}
            <InputField
              inputRef={inputRef}
              id="auth-code"
              label={emailed ? w.codeLabel : w.accessCodeLabel}
              hint={emailed ? w.codeHint : undefined}
              error={fieldError}
              type={emailed ? 'text' : 'password'}
              inputMode={emailed ? 'numeric' : undefined}
              autoComplete={emailed ? 'one-time-code' : 'off'}
              spellCheck={false}
              maxLength={emailed ? 12 : 64}
              value={code}
              disabled={busy !== null}
              onChange={(e) => setCode(e.target.value)}
            />
            <button
              type="submit"
              className="button primary"
              disabled={busy !== null}
              aria-busy={busy === 'check'}
            >
              {busy === 'check' ? w.checking : busy === 'open' ? w.opening : w.open}
            </button>
            {emailed && (
              <p className="auth-resend">
                <button
                  type="button"
                  className="button secondary"
                  onClick={() => void send()}
                  disabled={busy !== null || waitSeconds > 0}
                >
                  {w.sendAgain}
                </button>{' '}
                {waitSeconds > 0 && (
                  <span className="muted">{format(w.sendAgainIn, { seconds: waitSeconds })}</span>
                )}
              </p>
            )}
          </form>
        )}
        {formError && (
          <p className="form-error" role="alert" tabIndex={-1} ref={errorRef}>
            {formError.text}
          </p>
        )}
      </section>
    </PageShell>
  );
}
