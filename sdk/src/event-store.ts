/**
 * Remembers which event ids were processed, so that retries and redeliveries (same id)
 * do no repeated work. Back it with your database for durability across restarts and
 * processes; `add` is called only after `onEvent` succeeded.
 */
export type WebhookEventStore = {
  has(id: string): Promise<boolean>;
  add(id: string): Promise<void>;
};

export type MemoryEventStoreOptions = {
  /** Ids kept before the oldest are forgotten. Default 10 000. */
  maxEntries?: number;
};

/** Creates an in-process, bounded event-id store (lost on restart; one process only). */
export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): WebhookEventStore {
  const { maxEntries = 10_000 } = options;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new TypeError('maxEntries must be a positive integer');
  }
  // A Map iterates in insertion order, so the first key is the oldest: a FIFO bound that
  // keeps memory flat however many events arrive. Retries of one event span ~25 s, so
  // even a small bound covers them; the bound only limits how old a redelivery it catches.
  const ids = new Map<string, true>();
  return {
    async has(id) {
      return ids.has(id);
    },
    async add(id) {
      ids.delete(id);
      ids.set(id, true);
      while (ids.size > maxEntries) {
        const oldest = ids.keys().next();
        if (oldest.done) break;
        ids.delete(oldest.value);
      }
    },
  };
}
