import { useEffect } from 'react';
import type { Language } from '../../../server/src/i18n/index.js';
import { formatRich, useSpeech } from './i18n.js';
import type { Finished } from './status-panel.js';

/** How long the signee reads where they are going before the page goes there. */
export const REDIRECT_DELAY_MS = 2500;

/** "Returning you to {host}…" in every language: only this page says it, so it lives here. */
export const RETURNING: Record<Language, string> = {
  en: 'Returning you to {host}…',
  de: 'Sie werden zu {host} weitergeleitet…',
  fr: 'Retour vers {host}…',
  es: 'Volviendo a {host}…',
  nl: 'U gaat terug naar {host}…',
  pt: 'Voltando para {host}…',
  it: 'Ritorno a {host}…',
  pl: 'Powrót do {host}…',
  ja: '{host} に戻ります…',
  zh: '正在返回 {host}…',
  ko: '{host}(으)로 돌아갑니다…',
  ar: 'جارٍ إعادتك إلى {host}…',
};

/**
 * The document's redirect URL with `documentId`, `signeeId` and `event` appended to its own
 * query, which is kept byte for byte (re-encoding it could change what the integrator reads).
 */
export function redirectTarget(
  redirectUrl: string,
  params: { documentId: string; signeeId: string; event: Finished },
): URL {
  const url = new URL(redirectUrl);
  const ours = new URLSearchParams(params).toString();
  url.search = url.search.length > 1 ? `${url.search}&${ours}` : `?${ours}`;
  return url;
}

/**
 * After signing or declining on this page: says which site the signee is sent to, then goes
 * there. The server let only https (or http to loopback) through; the page checks it again.
 */
export function RedirectNotice(props: {
  redirectUrl: string;
  documentId: string;
  signeeId: string;
  event: Finished;
}) {
  const { language } = useSpeech();
  const target = redirectTarget(props.redirectUrl, {
    documentId: props.documentId,
    signeeId: props.signeeId,
    event: props.event,
  });
  const href = target.href;
  const safe = target.protocol === 'https:' || target.protocol === 'http:';
  useEffect(() => {
    if (!safe) return;
    const timer = window.setTimeout(() => window.location.assign(href), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [href, safe]);
  if (!safe) return null;
  return (
    <p className="redirect-notice" role="status" data-testid="redirect-notice">
      {formatRich(RETURNING[language], {
        host: (
          <a href={href}>
            <strong>{target.host}</strong>
          </a>
        ),
      })}
    </p>
  );
}
