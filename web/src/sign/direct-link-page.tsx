import { useEffect } from 'react';
import { DirectLinkForm } from './direct-link-form.js';
import { format, formatRich, SpeechProvider, useSpeech } from './i18n.js';
import { LoadFailedPage, LoadingPage, Notice, PageShell, SenderMessage } from './page-shell.js';
import { fetchDirectLink, type DirectLinkView } from './signing-api.js';
import { useLinkLoad, type LinkLoader, type LinkView } from './use-link-load.js';

type Loaded = { kind: 'disabled' } | { kind: 'ready'; link: DirectLinkView };
type View = LinkView<Loaded>;

// The template's language once the link is known; a disabled link says it too.
const loader: LinkLoader<DirectLinkView, Loaded> = {
  fetch: fetchDirectLink,
  languageOf: (link) => link.language,
  ready: (link) => ({ kind: 'ready', link }),
  gone: { kind: 'disabled' },
};

/**
 * A template's direct link (`/t/{token}`): the template's name and message and the form that
 * makes the visitor its signee; the signing page itself follows at `/sign/…`.
 */
export function DirectLinkPage(props: { token: string | null }) {
  const { token } = props;
  const { view, setView, language, retry } = useLinkLoad(token, loader);
  return (
    <SpeechProvider language={language}>
      <DirectLinkContent token={token} view={view} setView={setView} retry={retry} />
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

  if (view.kind === 'loading') return <LoadingPage />;
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
  if (view.kind === 'failed') return <LoadFailedPage error={view.error} retry={props.retry} />;

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
          <SenderMessage message={link.signingMessage} senderName={link.senderName} />
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
