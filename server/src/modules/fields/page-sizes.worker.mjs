// Runs readPageSizesHere (page-sizes.ts) off the event loop for large uploads, with the memory
// limit and deadline createBoundedWorker gives the thread.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { readPageSizesHere } = await import('./page-sizes.ts');

parentPort.on('message', async ({ bytes }) => {
  try {
    parentPort.postMessage({ result: await readPageSizesHere(bytes) });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
