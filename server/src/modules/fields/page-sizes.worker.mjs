// Runs readPageSizesHere (page-sizes.ts) off the event loop for large uploads, with the memory
// limit and deadline createBoundedWorker gives the thread.
import { parentPort } from 'node:worker_threads';
import { importBeside } from '../../lib/worker-import.mjs';

const { readPageSizesHere } = await importBeside('./page-sizes', import.meta.url);

parentPort.on('message', async ({ bytes }) => {
  try {
    parentPort.postMessage({ result: await readPageSizesHere(bytes) });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
