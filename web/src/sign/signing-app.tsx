import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { format, formatRich, SpeechProvider, useSpeech } from './i18n.js';
import { DeclineForm, type DeclineResult } from './decline-form.js';
import { initialsOf, useFieldFilling, type Mark } from './field-filling.js';
import { FieldLayer } from './field-layer.js';
import { SignForm, type SignResult } from './sign-form.js';
import { ApproveForm } from './approve-form.js';
import { DirectLinkPage } from './direct-link-page.js';
import {
  directTokenFromPath,
  tokenFromPath,
  type CannotSignReason,
  type SigningSession,
} from './signing-api.js';
import { StatusPanel, type Finished } from './status-panel.js';
import { FinishedLinkPage } from './finished-page.js';
import { SignedCopy } from './signed-copy.js';
import { useLinkStatus } from './use-link-status.js';
import { RedirectNotice } from './redirect-notice.js';
import { LoadFailedPage, LoadingPage, Notice, PageShell, SenderMessage } from './page-shell.js';
import { useLinkLoad, type LinkLoader, type LinkView } from './use-link-load.js';
import { useEmbedMessages } from './embed-messages.js';
import { fetchSessionOrGate, isAuthRequired, type AuthRequired } from './auth-api.js';
import { AuthGate } from './auth-gate.js';

// pdf.js is most of the page's code: load it in its own chunk, so the names, the message and the
// signing panel show while it is still on its way.
const PdfPages = lazy(() => import('./pdf-pages.js').then((m) => ({ default: m.PdfPages })));

type Loaded =
  | { kind: 'expired' }
  | { kind: 'ready'; session: SigningSession; finished: Finished | null }
  // The link asks for a code first (decisions §13): nothing of the document is known yet.
  | { kind: 'auth'; gate: AuthRequired };
type View = LinkView<Loaded>;

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

// The document's language once the session is known; an expired link says it too.
const loader: LinkLoader<SigningSession | AuthRequired, Loaded> = {
  fetch: fetchSessionOrGate,
  languageOf: (value) => (isAuthRequired(value) ? (value.language ?? '') : value.document.language),
  ready: (value) =>
    isAuthRequired(value)
      ? { kind: 'auth', gate: value }
      : { kind: 'ready', session: value, finished: null },
  gone: { kind: 'expired' },
};

// A signing link: loads its session and shows the document and the panel.
function SigningLinkApp() {
  const [token] = useState(() => tokenFromPath(window.location.pathname));
  const { view, setView, language, retry } = useLinkLoad(token, loader);
  const approver = view.kind === 'ready' && view.session.signee.role === 'approver';
  return (
    <SpeechProvider language={language} approver={approver}>
      <SigningView token={token} view={view} setView={setView} retry={retry} />
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
  // In an integrator's frame, its page hears of each of these states (decisions §13).
  useEmbedMessages(view);

  if (view.kind === 'loading') return <LoadingPage />;
  if (view.kind === 'invalid') {
    return (
      <PageShell>
        <Notice title={t.invalidTitle}>{t.invalidBody}</Notice>
      </PageShell>
    );
  }
  // A closed document's link: what happened, and the signed copy when it is signed.
  if (view.kind === 'expired') {
    return token ? (
      <FinishedLinkPage token={token} />
    ) : (
      <PageShell>
        <Notice title={t.expiredTitle}>{t.expiredBody}</Notice>
      </PageShell>
    );
  }
  if (view.kind === 'failed') return <LoadFailedPage error={view.error} retry={props.retry} />;
  if (view.kind === 'auth') {
    return (
      <AuthGate
        token={token!}
        gate={view.gate}
        onVerified={props.retry}
        onGone={(why) =>
          setView(() => (why === 'expired' ? { kind: 'expired' } : { kind: 'invalid' }))
        }
      />
    );
  }

  return (
    <ReadyView token={token!} session={view.session} finished={view.finished} settle={settle} />
  );
}

// After signing: polls the link's status until the signed copy can be downloaded here.
function CopyWhenSigned(props: { token: string; signed: boolean }) {
  const { status } = useLinkStatus(props.token, props.signed);
  return props.signed ? <SignedCopy status={status} headline /> : null;
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
  // Signed (here, earlier, or by their group): the signed copy comes to this page when ready.
  const hasSigned =
    finished === 'signed' ||
    (finished === null && (session.reason === 'signed' || session.reason === 'group_signed'));
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
    <PageShell skipToSigning brand={session.brand}>
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
        <SenderMessage message={doc.signingMessage} senderName={doc.senderName} />
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
              {signee.role === 'approver' ? (
                <ApproveForm token={token} onResult={settle} />
              ) : (
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
              )}
              <DeclineForm token={token} senderName={doc.senderName} onResult={settle} />
            </>
          ) : (
            <>
              <StatusPanel
                headingId="signing-heading"
                documentName={doc.name}
                senderName={doc.senderName}
                reason={session.reason}
                finished={finished}
              />
              <CopyWhenSigned token={token} signed={hasSigned} />
              {finished && doc.redirectUrl ? (
                <RedirectNotice
                  redirectUrl={doc.redirectUrl}
                  documentId={doc.id}
                  signeeId={signee.id}
                  event={finished}
                />
              ) : null}
            </>
          )}
        </section>
      </div>
    </PageShell>
  );
}
