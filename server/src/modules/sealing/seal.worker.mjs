// Runs sealPdf (seal-pdf.ts) off the event loop, with the memory limit and deadline
// createBoundedWorker gives the thread (seal-worker.ts).
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { sealPdf } = await import('./seal-pdf.ts');

parentPort.on('message', async (input) => {
  try {
    const sealed = await sealPdf(input);
    parentPort.postMessage({ result: sealed }, [sealed.bytes.buffer]);
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
