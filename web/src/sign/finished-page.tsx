import { useEffect } from 'react';
import { useSpeech } from './i18n.js';
import { LoadingPage, Notice, PageShell } from './page-shell.js';
import { SignedCopy, whatHappened } from './signed-copy.js';
import { useLinkStatus } from './use-link-status.js';

/**
 * A link re-opened once its document is closed (the signing API answers 410): what happened,
 * in the signee's language (signed by everyone, with the signed copy to download; declined;
 * cancelled by the sender; expired). A link whose status cannot be read either (it asks for a
 * code first) keeps the plain "no longer valid" notice.
 */
export function FinishedLinkPage(props: { token: string }) {
  const { t } = useSpeech();
  const { status, failed } = useLinkStatus(props.token, true);
  const happened = status ? whatHappened(t, status) : null;
  useEffect(() => {
    if (status) document.title = `${status.document.name} · Signet`;
  }, [status]);

  if (!status || !happened?.title) {
    if (!failed && !status) return <LoadingPage />;
    return (
      <PageShell>
        <Notice title={t.expiredTitle}>{t.expiredBody}</Notice>
      </PageShell>
    );
  }
  return (
    <PageShell brand={status.brand}>
      <section className={`notice finished finished-${status.state}`}>
        <h1 className="notice-title">{happened.title}</h1>
        {happened.body ? <p>{happened.body}</p> : null}
        {status.state === 'signed' || status.state === 'sealing' ? (
          <SignedCopy status={status} headline={false} />
        ) : null}
      </section>
    </PageShell>
  );
}
