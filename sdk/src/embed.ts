/**
 * Embedded signing (decisions §13): `mount` puts a signing link's page in an iframe of the
 * integrator's own page and hands it the page's events. The same code is Signet's `/embed.js`
 * (`window.Signet.mount`). Browser-only, but nothing here runs at import, so Node may import
 * the SDK.
 */

/** The events a signing page posts to the page that frames it. */
export type SignetEmbedEventType =
  'signet:ready' | 'signet:signed' | 'signet:declined' | 'signet:error';

/**
 * One event of the signing page. `documentId` and `signeeId` are null only on an error met
 * before the link's document was known (an expired link, a verification still to pass);
 * `code` is the problem's code on `signet:error` (`link_expired`, `network_error`, …).
 */
export type SignetEmbedEvent = {
  type: SignetEmbedEventType;
  documentId: string | null;
  signeeId: string | null;
  code?: string;
};

/** How to mount a signing page. */
export type SignetMountOptions = {
  /** The signing link (`https://signet.example/sign/sg_…`), from the send answer's deliveries. */
  url: string;
  /** Called with each event of the page, from that page only. */
  onEvent?: (event: SignetEmbedEvent) => void;
  /**
   * The iframe's height: a number of pixels or a CSS length. Left out (or `"auto"`), the frame
   * follows the height of the page's content, from 640px on.
   */
  height?: number | string;
  /** The iframe's accessible title; "Sign document" by default. */
  title?: string;
};

/** A mounted signing page. */
export type SignetMountedSigning = {
  iframe: HTMLIFrameElement;
  /** Removes the iframe and stops listening. */
  unmount: () => void;
};

const EVENT_TYPES: readonly string[] = [
  'signet:ready',
  'signet:signed',
  'signet:declined',
  'signet:error',
];
const AUTO_START_HEIGHT = 640;
const AUTO_MIN_HEIGHT = 320;

const idOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * Mounts a signing link's page in a new iframe inside `element` (or the element a selector
 * names). Messages count only when they come from that iframe and from the link's own origin;
 * the page sends them only to the origins the tenant listed in `embedOrigins`.
 */
export function mount(
  element: Element | string,
  options: SignetMountOptions,
): SignetMountedSigning {
  if (typeof document === 'undefined') throw new Error('Signet.mount runs in a browser page');
  const container = typeof element === 'string' ? document.querySelector(element) : element;
  if (!container) throw new Error(`Signet.mount: no element ${String(element)}`);
  const url = new URL(options.url, document.baseURI);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error('Signet.mount: url must be an http(s) signing link');
  }
  const auto = options.height === undefined || options.height === 'auto';
  const iframe = document.createElement('iframe');
  iframe.src = url.href;
  iframe.title = options.title ?? 'Sign document';
  iframe.allow = 'clipboard-write';
  // The page learns who frames it from the referrer: send our origin whatever this page's policy.
  iframe.referrerPolicy = 'origin';
  iframe.style.display = 'block';
  iframe.style.width = '100%';
  iframe.style.border = '0';
  iframe.style.height = auto
    ? `${AUTO_START_HEIGHT}px`
    : typeof options.height === 'number'
      ? `${options.height}px`
      : String(options.height);

  const onMessage = (event: MessageEvent) => {
    if (event.source !== iframe.contentWindow || event.origin !== url.origin) return;
    const data = event.data as Record<string, unknown> | null;
    if (typeof data !== 'object' || data === null || typeof data.type !== 'string') return;
    if (data.type === 'signet:resize') {
      const height = Number(data.height);
      if (auto && Number.isFinite(height) && height > 0) {
        iframe.style.height = `${Math.max(AUTO_MIN_HEIGHT, Math.ceil(height))}px`;
      }
      return;
    }
    if (!EVENT_TYPES.includes(data.type)) return;
    const signetEvent: SignetEmbedEvent = {
      type: data.type as SignetEmbedEventType,
      documentId: idOrNull(data.documentId),
      signeeId: idOrNull(data.signeeId),
    };
    if (typeof data.code === 'string') signetEvent.code = data.code;
    options.onEvent?.(signetEvent);
  };
  window.addEventListener('message', onMessage);
  container.appendChild(iframe);
  return {
    iframe,
    unmount: () => {
      window.removeEventListener('message', onMessage);
      iframe.remove();
    },
  };
}
