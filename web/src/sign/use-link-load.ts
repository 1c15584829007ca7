import { useEffect, useState } from 'react';
import { ApiError } from '../shared/http.js';
import { asLanguage, browserLanguage, type Language } from './i18n.js';

/** What a link page shows before (and instead of) what its link opens. */
export type LinkView<Loaded> =
  { kind: 'loading' } | { kind: 'invalid' } | { kind: 'failed'; error: ApiError | null } | Loaded;

/** How a link page loads what its token opens, and the views that come of it. */
export type LinkLoader<T, Loaded> = {
  fetch: (token: string, signal: AbortSignal) => Promise<T>;
  /** The language the page speaks once the link is known. */
  languageOf: (value: T) => string;
  ready: (value: T) => Loaded;
  /** The view of a 410: the link was there but is no more. */
  gone: Loaded;
};

/**
 * Loads what a link's token opens (again on `retry`): 404 is an invalid link, 410 a gone one
 * (in the language the answer names), anything else a failure to retry. The page speaks the
 * browser's language until the link's is known, and keeps it after.
 */
export function useLinkLoad<T, Loaded>(token: string | null, loader: LinkLoader<T, Loaded>) {
  type View = LinkView<Loaded>;
  const [view, setView] = useState<View>(() => (token ? { kind: 'loading' } : { kind: 'invalid' }));
  const [attempt, setAttempt] = useState(0);
  const [language, setLanguage] = useState<Language>(browserLanguage);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    setView({ kind: 'loading' });
    loader
      .fetch(token, controller.signal)
      .then((value) => {
        setLanguage(asLanguage(loader.languageOf(value)));
        setView(loader.ready(value));
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = err instanceof ApiError ? err : null;
        if (apiError?.status === 404) setView({ kind: 'invalid' });
        else if (apiError?.status === 410) {
          if (apiError.language) setLanguage(asLanguage(apiError.language));
          setView(loader.gone);
        } else setView({ kind: 'failed', error: apiError });
      });
    return () => controller.abort();
  }, [token, attempt, loader]);

  return { view, setView, language, retry: () => setAttempt((n) => n + 1) };
}
