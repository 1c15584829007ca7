import type { ReactNode } from 'react';
import { useSpeech } from './i18n.js';

/** Header, optional skip link and the main landmark around every state of the signing page. */
export function PageShell(props: { children: ReactNode; skipToSigning?: boolean }) {
  const { t } = useSpeech();
  return (
    <div className="app">
      {props.skipToSigning && (
        <a className="skip-link" href="#signing">
          {t.skipToSigning}
        </a>
      )}
      <header className="site-header">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Signet
        </span>
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
