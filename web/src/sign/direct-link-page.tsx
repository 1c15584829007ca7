import { useEffect, useState } from 'react';
import { ApiError } from '../shared/http.js';
import { DirectLinkForm } from './direct-link-form.js';
import {
  asLanguage,
  browserLanguage,
  format,
  formatRich,
  SpeechProvider,
  useSpeech,
  type Language,
} from './i18n.js';
import { Notice, PageShell } from './page-shell.js';
import { problemText } from './problem-text.js';
import { fetchDirectLink, type DirectLinkView } from './signing-api.js';

type View =
  | { kind: 'loading' }
  | { kind: 'invalid' }
  | { kind: 'disabled' }
  | { kind: 'failed'; error: ApiError | null }
  | { kind: 'ready'; link: DirectLinkView };

/**
 * A template's direct link (`/t/{token}`): the template's name and message and the form that
 * makes the visitor its signee; the signing page itself follows at `/sign/…`.
 */
export function DirectLinkPage(props: { token: string | null }) {
  const { token } = props;
  const [view, setView] = useState<View>(() => (token ? { kind: 'loading' } : { kind: 'invalid' }));
  const [attempt, setAttempt] = useState(0);
  // The browser's language until the template's is known; kept after (a disabled link says it).
  const [language, setLanguage] = useState<Language>(browserLanguage);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    setView({ kind: 'loading' });
    fetchDirectLink(token, controller.signal)
      .then((link) => {
        setLanguage(asLanguage(link.language));
        setView({ kind: 'ready', link });
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = err instanceof ApiError ? err : null;
        if (apiError?.status === 404) setView({ kind: 'invalid' });
        else if (apiError?.status === 410) {
          if (apiError.language) setLanguage(asLanguage(apiError.language));
          setView({ kind: 'disabled' });
        } else setView({ kind: 'failed', error: apiError });
      });
    return () => controller.abort();
  }, [token, attempt]);

  return (
    <SpeechProvider language={language}>
      <DirectLinkContent
        token={token}
        view={view}
        setView={setView}
        retry={() => setAttempt((n) => n + 1)}
      />
    </SpeechProvider>
  );
}

function DirectLinkContent(props: {
  token: string | null;
  view: View;
  setView: (view: View) => void;
  retry: () => void;
}) {
  const { token, view, setView } = props;
  const { t } = useSpeech();
  const w = t.directLink;
  const name = view.kind === 'ready' ? view.link.name : null;
  useEffect(() => {
    document.title = name ? format(w.pageTitle, { document: name }) : t.pageTitleDefault;
  }, [name, t, w]);

  if (view.kind === 'loading') {
    return (
      <PageShell>
        <p className="page-loading" role="status">
          {t.loading}
        </p>
      </PageShell>
    );
  }
  if (view.kind === 'invalid' || view.kind === 'disabled') {
    const invalid = view.kind === 'invalid';
    return (
      <PageShell>
        <Notice title={invalid ? w.invalidTitle : w.disabledTitle}>
          {invalid ? w.invalidBody : w.disabledBody}
        </Notice>
      </PageShell>
    );
  }
  if (view.kind === 'failed') {
    return (
      <PageShell>
        <Notice title={t.loadFailedTitle} alert>
          {problemText(t, view.error)}
        </Notice>
        <button type="button" className="button primary" onClick={props.retry}>
          {t.tryAgain}
        </button>
      </PageShell>
    );
  }

  const { link } = view;
  return (
    <PageShell>
      <section className="direct-link" aria-labelledby="direct-link-title">
        <div className="intro">
          <p className="eyebrow">{t.eyebrow}</p>
          <h1 id="direct-link-title" className="document-title">
            {link.name}
          </h1>
          <p className="lede">
            {formatRich(w.lede, { sender: <strong>{link.senderName}</strong> })}
          </p>
          {link.signingMessage && (
            <figure className="message">
              <blockquote>
                <p>{link.signingMessage}</p>
              </blockquote>
              <figcaption>{format(t.messageFrom, { sender: link.senderName })}</figcaption>
            </figure>
          )}
        </div>
        <DirectLinkForm
          token={token!}
          senderName={link.senderName}
          onGone={(why) => setView({ kind: why })}
        />
      </section>
    </PageShell>
  );
}
