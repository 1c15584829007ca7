import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { ApiError, failureMessage } from '../shared/http.js';
import { DeclineForm, type DeclineResult } from './decline-form.js';
import { initialsOf, useFieldFilling, type Mark } from './field-filling.js';
import { FieldLayer } from './field-layer.js';
import { SignForm, type SignResult } from './sign-form.js';
import {
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
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; session: SigningSession; finished: Finished | null };

/** The whole signing page: loads the link's session and shows the document and the panel. */
export function SigningApp() {
  const [token] = useState(() => tokenFromPath(window.location.pathname));
  const [view, setView] = useState<View>(() => (token ? { kind: 'loading' } : { kind: 'invalid' }));
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    setView({ kind: 'loading' });
    fetchSigningSession(token, controller.signal)
      .then((session) => setView({ kind: 'ready', session, finished: null }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = err instanceof ApiError ? err : null;
        if (apiError?.status === 404) setView({ kind: 'invalid' });
        else if (apiError?.status === 410) setView({ kind: 'expired' });
        else setView({ kind: 'failed', message: failureMessage('Loading the document', apiError) });
      });
    return () => controller.abort();
  }, [token, attempt]);

  const documentName = view.kind === 'ready' ? view.session.document.name : null;
  useEffect(() => {
    document.title = documentName ? `Sign “${documentName}” · Signet` : 'Sign a document · Signet';
  }, [documentName]);

  const settle = useCallback((result: SignResult | DeclineResult) => {
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
  }, []);

  if (view.kind === 'loading') {
    return (
      <PageShell>
        <p className="page-loading" role="status">
          Loading your document…
        </p>
      </PageShell>
    );
  }
  if (view.kind === 'invalid') {
    return (
      <PageShell>
        <Notice title="This signing link is not valid">
          Check that you opened the complete link from your invitation e-mail. If it still does not
          work, ask the sender for a new invitation.
        </Notice>
      </PageShell>
    );
  }
  if (view.kind === 'expired') {
    return (
      <PageShell>
        <Notice title="This signing link is no longer valid">
          The document has been completed, cancelled or declined, so it can no longer be signed
          here. Contact the sender if you need a copy.
        </Notice>
      </PageShell>
    );
  }
  if (view.kind === 'failed') {
    return (
      <PageShell>
        <Notice title="The document could not be loaded" alert>
          {view.message}
        </Notice>
        <button type="button" className="button primary" onClick={() => setAttempt((n) => n + 1)}>
          Try again
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
        <p className="eyebrow">Signature requested</p>
        <h1 className="document-title">{doc.name}</h1>
        <p className="lede">
          <strong>{doc.senderName}</strong> asks <strong>{signee.name}</strong>{' '}
          <span className="muted">({signee.email})</span> to sign this document.
        </p>
        {doc.signingMessage && (
          <figure className="message">
            <blockquote>
              <p>{doc.signingMessage}</p>
            </blockquote>
            <figcaption>Message from {doc.senderName}</figcaption>
          </figure>
        )}
        {/* On a phone the panel comes after every page; this is the short way there. */}
        <a className="jump-link" href="#signing">
          {signing ? 'Go to signing ↓' : 'Go to your signing status ↓'}
        </a>
      </div>
      <div className="layout">
        <Suspense
          fallback={
            <p className="document-status" role="status">
              Loading the document…
            </p>
          }
        >
          <PdfPages url={session.fileUrl} title={doc.name} overlay={overlay} />
        </Suspense>
        <section id="signing" className="panel" aria-labelledby="signing-heading" tabIndex={-1}>
          {signing ? (
            <>
              <h2 id="signing-heading" className="panel-heading">
                Sign as {signee.name}
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
