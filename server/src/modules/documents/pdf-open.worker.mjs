// Runs openPdfHere (pdf-open.ts) off the event loop, with the memory limit and deadline
// createBoundedWorker gives the thread, and a budget for what it may decompress.
import { parentPort } from 'node:worker_threads';
import { importBeside } from '../../lib/worker-import.mjs';
import { lowerThreadPriority } from '../../lib/worker-priority.mjs';

lowerThreadPriority();

const { openPdfHere, OPEN_INFLATE_BYTES } = await importBeside('./pdf-open', import.meta.url);
const { limitInflation, inflationExhausted } = await importBeside(
  '../../lib/bounded-inflate',
  import.meta.url,
);

await import('@libpdf/core');
// Loaded, the PDF library with it: the pool starts a job's deadline from here (announcesReady),
// so a thread that loads slowly on a busy machine does not spend a file's time on it.
parentPort.postMessage({ ready: true });

parentPort.on('message', async ({ bytes }) => {
  limitInflation(OPEN_INFLATE_BYTES);
  try {
    const opening = await openPdfHere(bytes);
    // The library swallows a refused stream and fails later on what it lacks: name the cause.
    parentPort.postMessage({
      result: inflationExhausted()
        ? {
            ok: false,
            needsPassword: false,
            reason: `its streams decompress to more than ${OPEN_INFLATE_BYTES / 1024 / 1024} MB`,
          }
        : opening,
    });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
