import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { ApiError } from '../shared/http.js';
import {
  asLanguage,
  browserLanguage,
  format,
  formatRich,
  SpeechProvider,
  useSpeech,
  type Language,
} from './i18n.js';
import { problemText } from './problem-text.js';
import { DeclineForm, type DeclineResult } from './decline-form.js';
import { initialsOf, useFieldFilling, type Mark } from './field-filling.js';
import { FieldLayer } from './field-layer.js';
import { SignForm, type SignResult } from './sign-form.js';
import { DirectLinkPage } from './direct-link-page.js';
import {
  directTokenFromPath,
  fetchSigningSession,
  tokenFromPath,
  type CannotSignReason,
  type SigningSession,
} from './signing-api.js';
import { StatusPanel, type Finished } from './status-panel.js';
import { Notice, PageShell } from './page-shell.js';

// pdf.js is most of the page's code: load it in its own chunk, so the names, the message and the
// signing panel show while it is still on its way.
const PdfPages = lazy(() => import('./pdf-pages.js').then((m) => ({ default: m.PdfPages })));

type View =
  | { kind: 'loading' }
  | { kind: 'invalid' }
  | { kind: 'expired' }
  | { kind: 'failed'; error: ApiError | null }
  | { kind: 'ready'; session: SigningSession; finished: Finished | null };

/**
 * The signing page's app: a template's direct link (`/t/{token}`) asks who is signing, then
 * sends the visitor on to their own signing link; every other path is a signing link.
 */
export function SigningApp() {
  if (window.location.pathname.startsWith('/t/')) {
    return <DirectLinkPage token={directTokenFromPath(window.location.pathname)} />;
  }
  return <SigningLinkApp />;
}

// A signing link: loads its session and shows the document and the panel.
function SigningLinkApp() {
  const [token] = useState(() => tokenFromPath(window.location.pathname));
  const [view, setView] = useState<View>(() => (token ? { kind: 'loading' } : { kind: 'invalid' }));
  const [attempt, setAttempt] = useState(0);
  // The browser's language until the document's is known; kept after (an expired link).
  const [language, setLanguage] = useState<Language>(browserLanguage);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    setView({ kind: 'loading' });
    fetchSigningSession(token, controller.signal)
      .then((session) => {
        setLanguage(asLanguage(session.document.language));
        setView({ kind: 'ready', session, finished: null });
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = err instanceof ApiError ? err : null;
        if (apiError?.status === 404) setView({ kind: 'invalid' });
        else if (apiError?.status === 410) {
          if (apiError.language) setLanguage(asLanguage(apiError.language));
          setView({ kind: 'expired' });
        } else setView({ kind: 'failed', error: apiError });
      });
    return () => controller.abort();
  }, [token, attempt]);

  return (
    <SpeechProvider language={language}>
      <SigningView
        token={token}
        view={view}
        setView={setView}
        retry={() => setAttempt((n) => n + 1)}
      />
    </SpeechProvider>
  );
}

function SigningView(props: {
  token: string | null;
  view: View;
  setView: (update: (current: View) => View) => void;
  retry: () => void;
}) {
  const { token, view, setView } = props;
  const { t } = useSpeech();
  const documentName = view.kind === 'ready' ? view.session.document.name : null;
  useEffect(() => {
    document.title = documentName
      ? format(t.pageTitle, { document: documentName })
      : t.pageTitleDefault;
  }, [documentName, t]);

  const settle = useCallback(
    (result: SignResult | DeclineResult) => {
      setView((current) => {
        if (result.kind === 'expired') return { kind: 'expired' };
        if (current.kind !== 'ready') return current;
        if (result.kind === 'not_your_turn') {
          const session = { ...current.session, canSign: false, reason: 'not_your_turn' as const };
          return { kind: 'ready', session, finished: null };
        }
        const reason: CannotSignReason = result.kind === 'signed' ? 'signed' : 'declined';
        const session = {
          ...current.session,
          signee: result.outcome.signee,
          canSign: false,
          reason,
        };
        return { kind: 'ready', session, finished: result.kind };
      });
    },
    [setView],
  );

  if (view.kind === 'loading') {
    return (
      <PageShell>
        <p className="page-loading" role="status">
          {t.loading}
        </p>
      </PageShell>
    );
  }
  if (view.kind === 'invalid') {
    return (
      <PageShell>
        <Notice title={t.invalidTitle}>{t.invalidBody}</Notice>
      </PageShell>
    );
  }
  if (view.kind === 'expired') {
    return (
      <PageShell>
        <Notice title={t.expiredTitle}>{t.expiredBody}</Notice>
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

  return (
    <ReadyView token={token!} session={view.session} finished={view.finished} settle={settle} />
  );
}

// Focuses a field on the pages (the control inside it, for a checkbox) and brings it into view.
function focusField(id: string) {
  const box = document.querySelector<HTMLElement>(`[data-field-id="${CSS.escape(id)}"]`);
  if (!box) return;
  const control = box.matches('input, select, button') ? box : box.querySelector('input');
  box.scrollIntoView({ block: 'center' });
  control?.focus({ preventScroll: true });
}

// Takes the signee to where they adopt a signature or type their initials.
function focusMarkInput(kind: 'signature' | 'initials') {
  document.getElementById('signing')?.scrollIntoView({ block: 'start' });
  const typed = document.getElementById('typed-signature');
  const target =
    kind === 'initials'
      ? document.getElementById('initials')
      : typed && typed.offsetParent !== null
        ? typed
        : document.querySelector<HTMLElement>('input[name="signature-mode"][value="drawn"]');
  target?.focus({ preventScroll: true });
}

function ReadyView(props: {
  token: string;
  session: SigningSession;
  finished: Finished | null;
  settle: (result: SignResult | DeclineResult) => void;
}) {
  const { token, session, finished, settle } = props;
  const { t } = useSpeech();
  const { document: doc, signee } = session;
  const [signature, setSignature] = useState<Mark | null>(null);
  const [initials, setInitials] = useState(() => initialsOf(signee.name));
  const marks = { signature, initials };
  const filling = useFieldFilling(session.fields, marks);
  const signing = session.canSign && !finished;
  const hasFields = session.fields.length > 0 || session.filledFields.length > 0;
  const overlay = hasFields
    ? (pageNumber: number, scale: number) => (
        <FieldLayer
          pageNumber={pageNumber}
          scale={scale}
          filling={filling}
          others={session.filledFields}
          pages={session.pages}
          signee={signee}
          marks={marks}
          onNeedMark={focusMarkInput}
          // Once signed (or when it is not their turn) the page only shows what is there.
          disabled={!signing}
        />
      )
    : undefined;
  return (
    <PageShell skipToSigning>
      <div className="intro">
        <p className="eyebrow">{t.eyebrow}</p>
        <h1 className="document-title">{doc.name}</h1>
        <p className="lede">
          {formatRich(t.lede, {
            sender: <strong>{doc.senderName}</strong>,
            signee: <strong>{signee.name}</strong>,
            email: <span className="muted">{signee.email}</span>,
          })}
        </p>
        {doc.signingMessage && (
          <figure className="message">
            <blockquote>
              <p>{doc.signingMessage}</p>
            </blockquote>
            <figcaption>{format(t.messageFrom, { sender: doc.senderName })}</figcaption>
          </figure>
        )}
        {/* On a phone the panel comes after every page; this is the short way there. */}
        <a className="jump-link" href="#signing">
          {signing ? t.goToSigning : t.goToStatus}
        </a>
      </div>
      <div className="layout">
        <Suspense
          fallback={
            <p className="document-status" role="status">
              {t.loadingDocument}
            </p>
          }
        >
          <PdfPages url={session.fileUrl} title={doc.name} overlay={overlay} />
        </Suspense>
        <section id="signing" className="panel" aria-labelledby="signing-heading" tabIndex={-1}>
          {signing ? (
            <>
              <h2 id="signing-heading" className="panel-heading">
                {format(t.signAs, { name: signee.name })}
              </h2>
              <SignForm
                token={token}
                onResult={settle}
                onMarkChange={setSignature}
                fields={
                  session.fields.length > 0
                    ? { filling, initials, onInitialsChange: setInitials, focusField }
                    : undefined
                }
              />
              <DeclineForm token={token} senderName={doc.senderName} onResult={settle} />
            </>
          ) : (
            <StatusPanel
              headingId="signing-heading"
              documentName={doc.name}
              senderName={doc.senderName}
              reason={session.reason}
              finished={finished}
            />
          )}
        </section>
      </div>
    </PageShell>
  );
}
