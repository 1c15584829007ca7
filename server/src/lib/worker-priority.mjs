// @ts-check
// A worker thread that parses untrusted input runs below normal CPU priority (nice 10: about a
// tenth of a core against a busy thread of normal priority), so that on a machine with fewer
// free cores than busy threads the event loop is scheduled first: a hostile file then costs its
// own thread's time, not the service's answers. Not the lowest (19): an honest file must still
// be read well within its thread's deadline on a busy machine.
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/**
 * Lowers the calling thread's priority to below normal (nice 10). Linux gives each thread its
 * own; elsewhere, or when the kernel refuses, the thread keeps the process's.
 */
export function lowerThreadPriority() {
  try {
    // /proc/thread-self names this thread's id: setpriority on it touches this thread only.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid) && tid > 0)
      setPriority(tid, constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not Linux: the thread keeps the process's priority.
  }
}
