// Runs readPageSizesHere (page-sizes.ts) off the event loop, with the memory limit and deadline
// createBoundedWorker gives the thread, and a budget for what it may decompress.
import { parentPort } from 'node:worker_threads';
import { importBeside } from '../../lib/worker-import.mjs';
import { lowerThreadPriority } from '../../lib/worker-priority.mjs';

lowerThreadPriority();

const { readPageSizesHere, PAGE_SIZES_INFLATE_BYTES } = await importBeside(
  './page-sizes',
  import.meta.url,
);
const { limitInflation, inflationExhausted } = await importBeside(
  '../../lib/bounded-inflate',
  import.meta.url,
);

await import('@libpdf/core');
// Loaded, the PDF library with it: the pool starts a job's deadline from here (announcesReady),
// so a thread that loads slowly on a busy machine does not spend a file's time on it.
parentPort.postMessage({ ready: true });

parentPort.on('message', async ({ bytes }) => {
  limitInflation(PAGE_SIZES_INFLATE_BYTES);
  try {
    const pages = await readPageSizesHere(bytes);
    if (inflationExhausted()) throw new Error(tooMuch());
    parentPort.postMessage({ result: pages });
  } catch (err) {
    // The library swallows a refused stream and fails later on what it lacks: name the cause.
    const message = inflationExhausted()
      ? tooMuch()
      : err instanceof Error
        ? err.message
        : String(err);
    parentPort.postMessage({ error: message });
  }
});

function tooMuch() {
  return `its streams decompress to more than ${PAGE_SIZES_INFLATE_BYTES / 1024 / 1024} MB`;
}
