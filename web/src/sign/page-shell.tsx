import type { ReactNode } from 'react';
import type { ApiError } from '../shared/http.js';
import { format, useSpeech } from './i18n.js';
import { problemText } from './problem-text.js';
import { BrandHeader, brandRootProps, type SigningBrand } from './brand-header.js';

/** Header, optional skip link and the main landmark around every state of the signing page. */
export function PageShell(props: {
  children: ReactNode;
  skipToSigning?: boolean;
  /** The tenant's brand, once the link is loaded: its name, logo and colour. */
  brand?: SigningBrand | null;
}) {
  const { t } = useSpeech();
  return (
    <div {...brandRootProps(props.brand)}>
      {props.skipToSigning && (
        <a className="skip-link" href="#signing">
          {t.skipToSigning}
        </a>
      )}
      <header className="site-header">
        <BrandHeader brand={props.brand} />
      </header>
      <main id="main" className="main">
        {props.children}
      </main>
    </div>
  );
}

/** A titled message that stands in for the document (invalid or expired link, load failure). */
export function Notice(props: { title: string; children: ReactNode; alert?: boolean }) {
  return (
    <section className="notice" role={props.alert ? 'alert' : undefined}>
      <h1 className="notice-title">{props.title}</h1>
      <p>{props.children}</p>
    </section>
  );
}

/** The page while its link is loading. */
export function LoadingPage() {
  const { t } = useSpeech();
  return (
    <PageShell>
      <p className="page-loading" role="status">
        {t.loading}
      </p>
    </PageShell>
  );
}

/** The page when its link could not be loaded, with a button to try again. */
export function LoadFailedPage(props: { error: ApiError | null; retry: () => void }) {
  const { t } = useSpeech();
  return (
    <PageShell>
      <Notice title={t.loadFailedTitle} alert>
        {problemText(t, props.error)}
      </Notice>
      <button type="button" className="button primary" onClick={props.retry}>
        {t.tryAgain}
      </button>
    </PageShell>
  );
}

/** The sender's message to the signee, quoted and signed with the sender's name. */
export function SenderMessage(props: { message?: string | null; senderName: string }) {
  const { t } = useSpeech();
  if (!props.message) return null;
  return (
    <figure className="message">
      <blockquote>
        <p>{props.message}</p>
      </blockquote>
      <figcaption>{format(t.messageFrom, { sender: props.senderName })}</figcaption>
    </figure>
  );
}
