import { AppError } from '../../lib/errors.js';

type Held = { since: number; deadlineMs: number };

/**
 * Who may start a verification now: one at a time per client (its upload, its wait and its
 * check), `slots` in all. Taken before the body is read, so a refused request costs no upload,
 * and given back when the answer is sent or the client goes away: at most `slots` uploads are
 * held in memory, however many clients ask.
 */
export function createVerifyAdmission(options: { slots: number }) {
  const held = new Map<string, Held>();

  const refuse = (detail: string, retryAfterMs: number) =>
    new AppError('rate_limited', detail, {
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
    });

  return {
    /**
     * Takes `client`'s slot for a verification that may run `deadlineMs`; returns the function
     * that gives it back (once). Throws 429 `rate_limited` with Retry-After when the client
     * already has one or every slot is taken.
     */
    admit(client: string, deadlineMs: number): () => void {
      const now = Date.now();
      const own = held.get(client);
      if (own) {
        // Its own verification ends by its deadline at the latest, once it has a thread.
        throw refuse(
          'One verification at a time per client address: wait for the answer to the one in progress.',
          own.since + own.deadlineMs - now,
        );
      }
      if (held.size >= options.slots) {
        throw refuse('Too many verifications are waiting; try again shortly.', deadlineMs);
      }
      const entry = { since: now, deadlineMs };
      held.set(client, entry);
      return () => {
        if (held.get(client) === entry) held.delete(client);
      };
    },
    /** Slots taken now. */
    taken: () => held.size,
  };
}
