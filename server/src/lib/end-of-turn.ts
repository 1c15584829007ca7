/**
 * Runs callbacks at the end of the current turn of the event loop, in the order they were
 * given: the first one schedules a `setImmediate`, which runs after the turn's I/O callbacks
 * and never waits for more I/O, so a callback is held for microseconds when idle and for the
 * rest of the turn under load. `onError` hears of a callback that throws; the others still run.
 */
export function createEndOfTurn(onError: (err: unknown) => void): (callback: () => void) => void {
  let pending: Array<() => void> = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    for (const callback of batch) {
      try {
        callback();
      } catch (err) {
        onError(err);
      }
    }
  };
  return (callback) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(callback);
  };
}
