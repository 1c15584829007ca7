import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const NAVIGATE = 'signet:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE, onChange);
  };
}

const currentLocation = () => window.location.pathname + window.location.search;

/** The current path and query string; re-renders on navigation and the back button. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const location = useSyncExternalStore(subscribe, currentLocation);
  const url = new URL(location, window.location.origin);
  return { path: url.pathname, query: url.searchParams };
}

// A page with unsaved work asks before the dashboard's own links take the user away.
let leaveGuard: ((to: string) => boolean) | null = null;

/**
 * Sets (or, with null, clears) what a link asks before it navigates: the guard answers true to
 * let it go, false to stay (and then asks the user itself).
 */
export function setLeaveGuard(guard: ((to: string) => boolean) | null): void {
  leaveGuard = guard;
}

/** Moves to another dashboard URL without reloading the page. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.scrollTo(0, 0);
  window.dispatchEvent(new Event(NAVIGATE));
}

/** Matches `/app/documents/:id` style patterns; returns the named parts or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.replace(/\/$/, '').split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(have[i]);
    else if (want[i] !== have[i]) return null;
  }
  return params;
}

/** A real link (works with middle-click and "open in new tab") that navigates in place. */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const { to, onClick, ...rest } = props;
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (leaveGuard && !leaveGuard(to)) return;
    navigate(to);
  }
  return <a {...rest} href={to} onClick={handleClick} />;
}
