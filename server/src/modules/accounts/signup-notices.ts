/** How long after one "someone tried to sign up" notice another to the same address waits. */
export const SIGNUP_NOTICE_COOLDOWN_MS = 15 * 60_000;

/** Addresses remembered at most; beyond it the oldest is forgotten. */
export const SIGNUP_NOTICE_MAX_ENTRIES = 50_000;

/**
 * Limits the notices signup sends to an existing address, so repeating a signup cannot flood
 * someone's inbox (the answer is the same either way, so nobody sees the difference). In
 * process memory; the map is in order of sending, so expired entries are a prefix.
 */
export function createSignupNotices(now: () => number = () => Date.now()) {
  const sentAt = new Map<string, number>();
  return {
    /** True (and remembers it) when a notice may go to this address now. */
    take(email: string): boolean {
      const t = now();
      for (const [key, at] of sentAt) {
        if (at + SIGNUP_NOTICE_COOLDOWN_MS > t) break;
        sentAt.delete(key);
      }
      if (sentAt.has(email)) return false;
      if (sentAt.size >= SIGNUP_NOTICE_MAX_ENTRIES) {
        const oldest = sentAt.keys().next();
        if (!oldest.done) sentAt.delete(oldest.value);
      }
      sentAt.set(email, t);
      return true;
    },
  };
}

/** The signup-notice limiter. */
export type SignupNotices = ReturnType<typeof createSignupNotices>;
