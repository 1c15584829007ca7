import { useEffect, useRef } from 'react';

/**
 * The signing page inside an integrator's page (decisions §13): it tells the page that frames it
 * what happens (`signet:ready`, `signet:signed`, `signet:declined`, `signet:error`) and how tall
 * it is (`signet:resize`, for embed.js's auto height). Only when framed, and only to an origin
 * the document's tenant listed in `embedOrigins`: the server names them in
 * `<meta name="signet-embed-origins">`, the same list its CSP lets frame the page.
 */

/** A message to the framing page, as `Signet.mount` (sdk/src/embed.ts) reads it. */
export type EmbedMessage = {
  type: 'signet:ready' | 'signet:signed' | 'signet:declined' | 'signet:error' | 'signet:resize';
  documentId: string | null;
  signeeId: string | null;
  code?: string;
  height?: number;
};

/** What of the page's state the messages follow; kinds it does not know post nothing. */
export type EmbedView = {
  kind: string;
  session?: { document: { id: string }; signee: { id: string } };
  finished?: 'signed' | 'declined' | null;
  error?: { code: string } | null;
};

const originOf = (url: string | undefined) => {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The origins to post to: the listed ones that the framing page has, as the browser reports it
 * (`location.ancestorOrigins`, where there is one, else the referrer, which embed.js's iframe
 * always sends as an origin). Never `*`: postMessage delivers to a target origin only if the
 * parent is at that origin, so a page that navigated elsewhere in the meantime gets nothing.
 */
export function embedTargets(): string[] {
  if (window.parent === window) return [];
  const meta = document.querySelector<HTMLMetaElement>('meta[name="signet-embed-origins"]');
  const listed = meta?.content.split(' ').filter(Boolean) ?? [];
  if (listed.length === 0) return [];
  const framing = [originOf(window.location.ancestorOrigins?.[0]), originOf(document.referrer)];
  return listed.filter((origin) => framing.includes(origin));
}

/** Posts `message` to the framing page at each of `targets`. */
export function postToHost(targets: readonly string[], message: EmbedMessage): void {
  for (const origin of targets) window.parent.postMessage(message, origin);
}

// The message a state of the page is worth. `ready`, `signed` and `declined` are sent once in
// the page's life; an error each time the page comes to it (again after a retry).
function messageFor(view: EmbedView): { type: EmbedMessage['type']; code?: string } | null {
  switch (view.kind) {
    case 'ready':
      return { type: view.finished ? `signet:${view.finished}` : 'signet:ready' };
    case 'expired':
      return { type: 'signet:error', code: 'link_expired' };
    case 'invalid':
      return { type: 'signet:error', code: 'not_found' };
    case 'failed':
      return { type: 'signet:error', code: view.error?.code ?? 'load_failed' };
    default:
      return null;
  }
}

/**
 * Follows the page's state and posts its events to the framing page: `signet:ready` when the
 * document is shown, `signet:signed` or `signet:declined` when the signee has done it here,
 * `signet:error` (with the problem's code) when the link cannot be shown; and the content's
 * height whenever it changes. Nothing at all when the page is not framed by a listed origin.
 */
export function useEmbedMessages(view: EmbedView): void {
  const targets = useRef<string[] | null>(null);
  targets.current ??= embedTargets();
  const ids = useRef<{ documentId: string | null; signeeId: string | null }>({
    documentId: null,
    signeeId: null,
  });
  const last = useRef<string | null>(null);
  const sentOnce = useRef(new Set<string>());

  useEffect(() => {
    const to = targets.current!;
    if (to.length === 0) return;
    if (view.session) {
      ids.current = { documentId: view.session.document.id, signeeId: view.session.signee.id };
    }
    const message = messageFor(view);
    const key = message ? `${message.type}:${message.code ?? ''}` : null;
    if (key === last.current) return;
    last.current = key;
    if (!message || !key) return;
    if (message.type !== 'signet:error') {
      if (sentOnce.current.has(key)) return;
      sentOnce.current.add(key);
    }
    const base = { type: message.type, ...ids.current };
    postToHost(to, message.code === undefined ? base : { ...base, code: message.code });
  }, [view]);

  useEffect(() => {
    const to = targets.current!;
    const root = document.getElementById('root');
    if (to.length === 0 || !root || typeof ResizeObserver === 'undefined') return;
    let last = 0;
    const observer = new ResizeObserver(() => {
      // The content's own height: the body's min-height follows the frame, which would feed back.
      const height = Math.ceil(root.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      postToHost(to, { type: 'signet:resize', ...ids.current, height });
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, []);
}
