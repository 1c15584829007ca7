// Runs verifyPdfFile (verify-pdf.ts) off the event loop: the file's signatures are parsed,
// hashed and checked here, with the memory limit and deadline the pool gives each worker.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { verifyPdfFile } = await import('./verify-pdf.ts');

parentPort.on('message', async ({ bytes, options }) => {
  try {
    parentPort.postMessage({ result: await verifyPdfFile(bytes, options) });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
