import { useState } from 'react';
import { call } from './dashboard-api.js';
import { useSubmit } from './use-submit.js';

/**
 * Sends the verification e-mail again, for the sign-up confirmation and the "verify your
 * e-mail" banner. The service answers alike whatever the address, so the wording hedges too.
 */
export function ResendVerification(props: { email: string }) {
  const [sent, setSent] = useState(false);
  const { busy, message, submit } = useSubmit();
  return (
    <span className="break">
      <button
        type="button"
        className="button secondary small"
        disabled={busy}
        onClick={() =>
          void submit(async () => {
            await call('POST /api/auth/resend-verification', { json: { email: props.email } });
            setSent(true);
          })
        }
      >
        Resend verification e-mail
      </button>{' '}
      {sent && (
        <span role="status">
          Sent, if the address still needs verifying: a new link is on its way (at most one every
          few minutes, so if one came a moment ago, use it).
        </span>
      )}
      {message && <span role="alert">{message}</span>}
    </span>
  );
}
