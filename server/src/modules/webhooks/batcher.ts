/**
 * Collects calls made in the same turn of the event loop (and while a previous batch is being
 * written) and serves them with one `run` of the whole batch; `run` returns one result per
 * item, in order. A failing batch is retried item by item, so one bad item cannot fail the
 * others. An idle caller waits one event-loop turn, a busy one shares its round trip with many.
 */
export function createBatcher<I, O>(run: (items: I[]) => Promise<O[]>): (item: I) => Promise<O> {
  type Waiting = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void };
  let queue: Waiting[] = [];
  let flushing = false;

  async function settle(batch: Waiting[]) {
    try {
      const results = await run(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
      for (const w of batch) await settle([w]);
    }
  }

  async function flush() {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      await settle(batch);
    }
    flushing = false;
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!flushing) {
        flushing = true;
        setImmediate(() => void flush());
      }
    });
}
