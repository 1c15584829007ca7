import { useEffect, useState } from 'react';
import { ApiError } from '../shared/http.js';
import { fetchLinkStatus, type LinkStatus } from './signing-api.js';

// Polling, not server-sent events: the wait is seconds while the copy is sealed but may be days
// while others sign, a plain GET passes every proxy and the signing reads' rate limit, and a
// page left open costs a request a minute at most. While sealing: 1 s growing to 5 s; while
// others sign: 3 s growing to a minute. A failed request is tried again on the same schedule.
const SCHEDULE = {
  sealing: { first: 1000, max: 5000 },
  open: { first: 3000, max: 60_000 },
} as const;
const GROWTH = 1.5;

/** Whether the page should keep asking: the document may still change. */
export function isSettling(status: LinkStatus | null) {
  return status === null || status.state === 'open' || status.state === 'sealing';
}

/**
 * What became of the link's document (GET /api/signing/{token}/status), asked at once when
 * `enabled` and again with backoff until it is signed, declined, cancelled or expired (a tab
 * brought back to the front asks at once). `failed` when the link answers 401, 404 or 410.
 */
export function useLinkStatus(token: string, enabled: boolean) {
  const [status, setStatus] = useState<LinkStatus | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let timer: number | undefined;
    let delay = 0;
    let phase: keyof typeof SCHEDULE = 'open';

    const ask = async () => {
      window.clearTimeout(timer);
      timer = undefined;
      let next: LinkStatus | null = null;
      try {
        next = await fetchLinkStatus(token, controller.signal);
        setStatus(next);
      } catch (err) {
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && [401, 404, 410].includes(err.status)) {
          setFailed(true);
          return;
        }
      }
      if (controller.signal.aborted || (next && !isSettling(next))) return;
      const now = next?.state === 'sealing' ? 'sealing' : next ? 'open' : phase;
      delay = now !== phase || delay === 0 ? SCHEDULE[now].first : delay * GROWTH;
      phase = now;
      delay = Math.min(delay, SCHEDULE[phase].max);
      timer = window.setTimeout(() => void ask(), delay);
    };
    // Timers of a background tab are slowed down by the browser: ask again on its return.
    const onVisible = () => {
      if (document.visibilityState === 'visible' && timer !== undefined) void ask();
    };
    document.addEventListener('visibilitychange', onVisible);
    void ask();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [token, enabled]);

  return { status, failed };
}
