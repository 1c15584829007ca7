import { AppError } from '../../lib/errors.js';

/** Failed logins one address may have per window before further attempts are refused. */
export const LOGIN_FAILURES_ALLOWED = 10;
/** How long failures count, from the first one of a window. */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

type Window = { failures: number; endsAt: number };

/**
 * Limits password guessing per account: after LOGIN_FAILURES_ALLOWED failed logins for one
 * e-mail address within LOGIN_FAILURE_WINDOW_MS, every login for it answers 429 until the
 * window ends, without checking the password (so a guess made then can never be confirmed).
 * A successful login clears the count. In process memory, like the API-key limiter.
 */
export function createLoginThrottle(now: () => number = Date.now) {
  const windows = new Map<string, Window>();
  let lastSweep = now();

  function current(email: string): Window | undefined {
    const t = now();
    if (t - lastSweep > LOGIN_FAILURE_WINDOW_MS) {
      for (const [key, w] of windows) if (w.endsAt <= t) windows.delete(key);
      lastSweep = t;
    }
    const w = windows.get(email);
    if (w && w.endsAt <= t) {
      windows.delete(email);
      return undefined;
    }
    return w;
  }

  return {
    /** Throws 429 `rate_limited` while the address has used up its failures. */
    check(email: string): void {
      const w = current(email);
      if (!w || w.failures < LOGIN_FAILURES_ALLOWED) return;
      const seconds = Math.max(1, Math.ceil((w.endsAt - now()) / 1000));
      throw new AppError(
        'rate_limited',
        `Too many failed logins for this account; try again in ${Math.ceil(seconds / 60)} minute(s).`,
        { headers: { 'retry-after': String(seconds) } },
      );
    },
    failed(email: string): void {
      const w = current(email);
      if (w) w.failures += 1;
      else windows.set(email, { failures: 1, endsAt: now() + LOGIN_FAILURE_WINDOW_MS });
    },
    succeeded(email: string): void {
      windows.delete(email);
    },
  };
}

/** The per-account login limiter. */
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
