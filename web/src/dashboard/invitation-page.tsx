import { call } from './dashboard-api.js';
import { asApiError } from './api.js';
import { LoginForm } from './auth-pages.js';
import { Link, navigate } from './router.js';
import { rememberTenantId } from './session.js';
import type { Meta, User } from './types.js';
import { ErrorMessage, PageTitle, StatusMessage } from './ui.js';
import { useLoad } from './use-load.js';
import { useSubmit } from './use-submit.js';

const GONE = {
  accepted: 'This invitation has already been accepted.',
  revoked: 'This invitation was withdrawn. Ask the person who invited you for a new one.',
  expired: 'This invitation has expired. Ask the person who invited you for a new one.',
};

/**
 * The page behind an invitation e-mail (`/invitations/{token}`), logged in or not: what the
 * invitation is, then accept it, log in (here, so the page stays), or make an account first.
 */
export function InvitationPage(props: {
  token: string;
  meta: Meta;
  user: User | null;
  setUser: (user: User | null) => void;
}) {
  const { token, user } = props;
  const view = useLoad(
    async () => (await call('GET /api/invitations/{token}', { params: { token } })).invitation,
    [token],
  );
  const accept = useSubmit();

  function onAccept() {
    void accept.submit(async () => {
      const { membership } = await call('POST /api/invitations/{token}/accept', {
        params: { token },
      });
      rememberTenantId(membership.tenantId);
      navigate('/app/workspace', { replace: true });
    });
  }

  async function logOut() {
    await call('POST /api/auth/logout').catch(() => undefined);
    props.setUser(null);
  }

  if (view.error) {
    const message =
      asApiError(view.error).status === 404
        ? 'This invitation link is not valid. Check that you opened the whole link from the e-mail.'
        : view.error;
    return (
      <section className="card auth-card break">
        <PageTitle>Invitation</PageTitle>
        <ErrorMessage error={message} />
      </section>
    );
  }
  const inv = view.data;
  if (!inv) return <p className="loading">Loading…</p>;
  const mine = user !== null && user.email.toLowerCase() === inv.email;

  return (
    <section className="card auth-card break">
      <PageTitle>{`Join ${inv.tenantName}`}</PageTitle>
      <p>
        <strong>{inv.inviterName}</strong> invites <strong>{inv.email}</strong> to join the
        workspace <strong>{inv.tenantName}</strong> on Signet as <strong>{inv.role}</strong>.
      </p>
      {inv.status !== 'pending' ? (
        <>
          <ErrorMessage error={GONE[inv.status]} />
          {user && <Link to="/app/workspace">Go to your workspaces</Link>}
        </>
      ) : !user ? (
        <InvitationLogin email={inv.email} onLoggedIn={props.setUser} />
      ) : !mine ? (
        <>
          <ErrorMessage
            error={`You are logged in as ${user.email}. This invitation is for ${inv.email}: log out, then log in with that address.`}
          />
          <button type="button" className="button secondary" onClick={() => void logOut()}>
            Log out
          </button>
        </>
      ) : !user.emailVerified ? (
        <StatusMessage>
          Verify your e-mail address first: open the link in the e-mail we sent
          {props.meta.devMailbox && (
            <>
              {' '}
              (<a href="/dev/mailbox">dev mailbox</a>)
            </>
          )}
          , then open this invitation again.
        </StatusMessage>
      ) : (
        <>
          <ErrorMessage error={accept.message} />
          <button
            type="button"
            className="button primary"
            disabled={accept.busy}
            onClick={onAccept}
          >
            Accept invitation
          </button>
        </>
      )}
    </section>
  );
}

/**
 * Log in without leaving the page (the log-in page goes on to the documents). An address
 * without an account signs up first; the invitation link in the e-mail brings them back.
 */
function InvitationLogin(props: { email: string; onLoggedIn: (user: User) => void }) {
  return (
    <>
      <h2>Log in to accept</h2>
      <LoginForm
        initialEmail={props.email}
        onLoggedIn={props.onLoggedIn}
        ariaLabel="Log in to accept"
      />
      <p>
        No account with {props.email} yet? <Link to="/signup">Create one</Link>, confirm your
        address from the e-mail we send, then open this invitation link again.
      </p>
    </>
  );
}
