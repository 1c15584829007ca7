import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { fieldError, otherErrors } from './api.js';
import { LoginForm } from './auth-pages.js';
import { call } from './dashboard-api.js';
import { Link, navigate } from './router.js';
import type { Meta, User } from './types.js';
import { ErrorMessage, PageTitle, StatusMessage, TextField } from './ui.js';
import { useSubmit } from './use-submit.js';

/**
 * The account recovery pages for a path, or null: they open logged in or not, like an
 * invitation, because the reset link arrives by e-mail whatever the browser's state.
 */
export function recoveryPage(
  path: string,
  props: { meta: Meta; setUser: (user: User | null) => void },
): ReactNode {
  if (path === '/forgot-password') return <ForgotPasswordPage meta={props.meta} />;
  if (path === '/reset-password') return <ResetPasswordPage setUser={props.setUser} />;
  return null;
}

function DevMailboxHint(props: { meta: Meta }) {
  if (!props.meta.devMailbox) return null;
  return (
    <p>
      This sandbox does not send e-mails: open the <a href="/dev/mailbox">dev mailbox</a> to find
      it.
    </p>
  );
}

/** Asks for the address to e-mail a reset link to; the answer is the same for any address. */
export function ForgotPasswordPage(props: { meta: Meta }) {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { busy, errors, message, submit } = useSubmit();
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(async () => {
      await call('POST /api/auth/password-reset', { json: { email } });
      setSentTo(email);
    });
  }
  if (sentTo) {
    return (
      <section className="card auth-card break">
        <PageTitle>Check your e-mail</PageTitle>
        <p role="status">
          If <strong>{sentTo}</strong> belongs to an account, we sent it a link to choose a new
          password. The link works once, within an hour. If you asked a moment ago, use the e-mail
          that came then: Signet spaces these e-mails out.
        </p>
        <DevMailboxHint meta={props.meta} />
        <p>
          <Link to="/login">Back to log in</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="card auth-card">
      <PageTitle>Forgot your password?</PageTitle>
      <p>Enter the e-mail address of your account: we will send it a link to choose a new one.</p>
      <form onSubmit={onSubmit} noValidate className="form">
        <ErrorMessage error={message} />
        {otherErrors(errors, ['email']).map((e) => (
          <ErrorMessage key={e.path} error={e.message} />
        ))}
        <TextField
          label="E-mail"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldError(errors, 'email')}
        />
        <button type="submit" className="button primary" disabled={busy}>
          Send reset link
        </button>
      </form>
      <p>
        Remembered it? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}

/**
 * The page behind the reset e-mail (`/reset-password?token=…`): a new password, then a login
 * form right here, since the reset ended every session, this browser's included.
 */
export function ResetPasswordPage(props: { setUser: (user: User | null) => void }) {
  // Read once, then taken out of the address bar, so it stays out of history and screenshots.
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '');
  useEffect(() => {
    if (window.location.search) window.history.replaceState(null, '', '/reset-password');
  }, []);
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState<User | null>(null);
  const { busy, errors, message, submit } = useSubmit();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setMismatch(password !== repeated);
    if (password !== repeated) return;
    void submit(async () => {
      const { user } = await call('POST /api/auth/password-reset/confirm', {
        json: { token, password },
      });
      props.setUser(null);
      setDone(user);
    });
  }

  if (done) {
    return (
      <section className="card auth-card">
        <PageTitle>Password changed</PageTitle>
        <StatusMessage>
          Your new password is set, and every device that was logged in to your account has been
          logged out. Log in with the new password.
        </StatusMessage>
        <LoginForm
          initialEmail={done.email}
          ariaLabel="Log in"
          onLoggedIn={(user) => {
            props.setUser(user);
            navigate('/app/documents', { replace: true });
          }}
        />
      </section>
    );
  }
  if (!token) {
    return (
      <section className="card auth-card">
        <PageTitle>Choose a new password</PageTitle>
        <ErrorMessage error="This page needs the whole link from the password reset e-mail." />
        <p>
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="card auth-card">
      <PageTitle>Choose a new password</PageTitle>
      <form onSubmit={onSubmit} noValidate className="form">
        <ErrorMessage error={message} />
        {otherErrors(errors, ['password']).map((e) => (
          <ErrorMessage key={e.path} error={e.message} />
        ))}
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters."
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError(errors, 'password', 'New password')}
        />
        <TextField
          label="Repeat the new password"
          type="password"
          autoComplete="new-password"
          value={repeated}
          onChange={(e) => setRepeated(e.target.value)}
          error={mismatch ? 'does not match the new password' : undefined}
        />
        <button type="submit" className="button primary" disabled={busy}>
          Set new password
        </button>
      </form>
      <p>
        Link expired? <Link to="/forgot-password">Ask for a new one</Link>
      </p>
    </section>
  );
}
