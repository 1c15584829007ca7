// Runs verifyPdfFile (verify-pdf.ts) off the event loop: the file's signatures are parsed,
// hashed and checked here, with the memory limit and deadline the pool gives each worker, and
// the whole file's SHA-256 taken (the bytes were moved here, not copied).
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { importBeside } from '../../lib/worker-import.mjs';
import { lowerThreadPriority } from '../../lib/worker-priority.mjs';

// This thread yields the CPU to the event loop, so hostile files cannot slow the service's
// other answers when the cores are busy.
lowerThreadPriority();

const { verifyPdfFile } = await importBeside('./verify-pdf', import.meta.url);
// Loaded: the pool starts a job's deadline from here (announcesReady).
parentPort.postMessage({ ready: true });

parentPort.on('message', async ({ bytes, options }) => {
  try {
    const result = await verifyPdfFile(bytes, options);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    parentPort.postMessage({ result: { ...result, sha256 } });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
