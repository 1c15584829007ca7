// Runs scanTextTags (text-tags.ts) off the event loop, with the memory limit and deadline
// createBoundedWorker gives the thread.
import { parentPort } from 'node:worker_threads';
import { importBeside } from '../../lib/worker-import.mjs';
import { lowerThreadPriority } from '../../lib/worker-priority.mjs';

lowerThreadPriority();

const { scanTextTags } = await importBeside('./text-tags', import.meta.url);

parentPort.on('message', async ({ bytes, options }) => {
  try {
    parentPort.postMessage({ result: await scanTextTags(bytes, options) });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
