// Runs sealPdf (seal-pdf.ts) off the event loop, with the memory limit and deadline
// createBoundedWorker gives the thread (seal-worker.ts).
import { parentPort } from 'node:worker_threads';
import { importBeside } from '../../lib/worker-import.mjs';

const { sealPdf } = await importBeside('./seal-pdf', import.meta.url);

parentPort.on('message', async (input) => {
  try {
    const sealed = await sealPdf(input);
    parentPort.postMessage({ result: sealed }, [sealed.bytes.buffer]);
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
