import { call } from './dashboard-api.js';
import { useState, type FormEvent } from 'react';
import { fieldError, otherErrors } from './api.js';
import { ResendVerification } from './resend-verification.js';
import { Link, navigate } from './router.js';
import type { Meta, User } from './types.js';
import { ErrorMessage, PageTitle, TextField } from './ui.js';
import { useSubmit } from './use-submit.js';

/** The login form: e-mail and password; the session cookie is set by the service. */
export function LoginForm(props: {
  onLoggedIn: (user: User) => void;
  initialEmail?: string;
  ariaLabel?: string;
}) {
  const [email, setEmail] = useState(props.initialEmail ?? '');
  const [password, setPassword] = useState('');
  const { busy, errors, message, submit } = useSubmit();
  const fields = ['email', 'password'];
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(async () => {
      const { user } = await call('POST /api/auth/login', { json: { email, password } });
      props.onLoggedIn(user);
    });
  }
  return (
    <form onSubmit={onSubmit} noValidate className="form" aria-label={props.ariaLabel}>
      <ErrorMessage error={message} />
      {otherErrors(errors, fields).map((e) => (
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
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldError(errors, 'password')}
      />
      <button type="submit" className="button primary" disabled={busy}>
        Log in
      </button>
    </form>
  );
}

/** Log in, then on to the documents. */
export function LoginPage(props: { onLoggedIn: (user: User) => void }) {
  return (
    <section className="card auth-card">
      <PageTitle>Log in</PageTitle>
      <LoginForm
        onLoggedIn={(user) => {
          props.onLoggedIn(user);
          navigate('/app/documents', { replace: true });
        }}
      />
      <p>
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
      <p>
        New to Signet? <Link to="/signup">Create an account</Link>
      </p>
    </section>
  );
}

/** Create an account; afterwards, say where the verification e-mail went. */
export function SignupPage(props: { meta: Meta }) {
  const [name, setName] = useState('');
  const [company, setCompany] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [created, setCreated] = useState<User | null>(null);
  const { busy, errors, message, submit } = useSubmit();
  const fields = ['name', 'tenantName', 'email', 'password'];
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(async () => {
      // Left blank, the workspace is named after the person (the service's rule).
      const tenantName = company.trim() || undefined;
      const { user } = await call('POST /api/auth/signup', {
        json: { name, email, password, tenantName },
      });
      setCreated(user);
    });
  }
  if (created) {
    return (
      <section className="card auth-card">
        <PageTitle>Check your e-mail</PageTitle>
        <p role="status">
          We sent an e-mail to <strong>{created.email}</strong>. Open the link in it to verify your
          address, then log in. If the address already has an account, the e-mail says so instead.
        </p>
        {props.meta.devMailbox && (
          <p>
            This sandbox does not send e-mails: open the <a href="/dev/mailbox">dev mailbox</a> to
            find it.
          </p>
        )}
        <p>
          <ResendVerification email={created.email} />
        </p>
        <p>
          <Link to="/login" className="button primary">
            Go to log in
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="card auth-card">
      <PageTitle>Create your account</PageTitle>
      <form onSubmit={onSubmit} noValidate className="form">
        <ErrorMessage error={message} />
        {otherErrors(errors, fields).map((e) => (
          <ErrorMessage key={e.path} error={e.message} />
        ))}
        <TextField
          label="Name"
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldError(errors, 'name')}
        />
        <TextField
          label="Company or team name (optional)"
          autoComplete="organization"
          value={company}
          onChange={(e) => setCompany(e.target.value)}
          hint="Your workspace gets this name; left blank, it is named after you. You can rename it later."
          error={fieldError(errors, 'tenantName', 'Company or team name')}
        />
        <TextField
          label="E-mail"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldError(errors, 'email')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError(errors, 'password')}
        />
        <button type="submit" className="button primary" disabled={busy}>
          Sign up
        </button>
      </form>
      <p>
        Already have an account? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}
