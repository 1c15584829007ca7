// Runs openPdfHere (pdf-open.ts) off the event loop, with the memory limit and deadline
// createBoundedWorker gives the thread.
import { parentPort } from 'node:worker_threads';
import { importBeside } from '../../lib/worker-import.mjs';

const { openPdfHere } = await importBeside('./pdf-open', import.meta.url);

parentPort.on('message', async ({ bytes }) => {
  try {
    parentPort.postMessage({ result: await openPdfHere(bytes) });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
