// Runs verifyPdfFile (verify-pdf.ts) off the event loop: the file's signatures are parsed,
// hashed and checked here, with the memory limit and deadline the pool gives each worker.
import { parentPort } from 'node:worker_threads';
import { importBeside } from '../../lib/worker-import.mjs';

const { verifyPdfFile } = await importBeside('./verify-pdf', import.meta.url);

parentPort.on('message', async ({ bytes, options }) => {
  try {
    parentPort.postMessage({ result: await verifyPdfFile(bytes, options) });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
