import { format, useSpeech, type Words } from './i18n.js';
import type { LinkStatus } from './signing-api.js';

/** What a closed document's page says happened (title and body), in the page's language. */
export function whatHappened(t: Words, status: LinkStatus) {
  const f = t.finished;
  const values = {
    document: status.document.name,
    sender: status.document.senderName,
    name: status.declinedBy?.name ?? '',
  };
  switch (status.state) {
    case 'signed':
      return { title: format(f.signedTitle, values), body: f.signedBody };
    case 'sealing':
      return { title: format(f.sealingTitle, values), body: null };
    case 'declined':
      return {
        title: format(f.declinedTitle, values),
        body: format(status.declinedBy?.you ? f.declinedByYouBody : f.declinedBody, values),
      };
    case 'cancelled':
      return { title: format(f.cancelledTitle, values), body: format(f.cancelledBody, values) };
    case 'expired':
      return { title: format(f.expiredTitle, values), body: format(f.expiredBody, values) };
    case 'open':
      return { title: null, body: f.waitingForOthers };
  }
}

/**
 * The signed copy's part of the page: waiting for the others, "Preparing the signed copy…",
 * then its download (or why there is none). `headline`: with a heading of its own (after
 * signing, under "You have signed"); without, the page's title already says it (a re-opened link).
 * A live region, so the download's arrival is announced without moving the focus.
 */
export function SignedCopy(props: { status: LinkStatus | null; headline: boolean }) {
  const { t } = useSpeech();
  const { status } = props;
  return (
    <div className="signed-copy" aria-live="polite">
      {status ? copyState(t, status, props.headline) : null}
    </div>
  );
}

// What the copy's part says in each state (a plain function: the live region keeps its nodes).
function copyState(t: Words, status: LinkStatus, headline: boolean) {
  const f = t.finished;
  const values = { document: status.document.name, sender: status.document.senderName };
  if (status.state === 'open') return <p className="copy-note">{f.waitingForOthers}</p>;
  if (status.state === 'sealing') {
    return (
      <p className="copy-progress">
        <span className="spinner" aria-hidden="true" />
        {f.preparingCopy}
      </p>
    );
  }
  if (status.state !== 'signed') {
    if (!headline) return null;
    const happened = whatHappened(t, status);
    return (
      <div className="copy-closed">
        <h3 className="copy-heading">{happened.title}</h3>
        <p>{happened.body}</p>
      </div>
    );
  }
  const copy = status.copy;
  return (
    <div className="copy-ready">
      {headline ? (
        <>
          <h3 className="copy-heading">{f.copyReadyTitle}</h3>
          <p>{format(f.copyReadyBody, values)}</p>
        </>
      ) : null}
      {copy?.url ? (
        <>
          <a className="button primary copy-download" href={copy.url} download>
            {f.downloadCopy}
          </a>
          <p className="copy-note">{f.copyValidity}</p>
        </>
      ) : (
        <p className="copy-note">
          {copy?.status === 'revoked'
            ? format(f.copyRevoked, values)
            : copy?.status === 'expired'
              ? format(f.copyExpired, values)
              : f.copyByEmail}
        </p>
      )}
    </div>
  );
}
