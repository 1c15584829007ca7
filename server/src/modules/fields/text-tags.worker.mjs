// Runs scanTextTags (text-tags.ts) off the event loop, with the memory limit and deadline
// createBoundedWorker gives the thread.
import { parentPort } from 'node:worker_threads';
import { importBeside } from '../../lib/worker-import.mjs';
import { lowerThreadPriority } from '../../lib/worker-priority.mjs';

lowerThreadPriority();

const { scanTextTags } = await importBeside('./text-tags', import.meta.url);
await Promise.all([import('pdfjs-dist-node/legacy/build/pdf.mjs'), import('@libpdf/core')]);
// Loaded, pdf.js and the PDF library with it: the pool starts a job's deadline from here (announcesReady),
// so a thread that loads slowly on a busy machine does not spend a file's time on it.
parentPort.postMessage({ ready: true });

parentPort.on('message', async ({ bytes, options }) => {
  try {
    parentPort.postMessage({ result: await scanTextTags(bytes, options) });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
