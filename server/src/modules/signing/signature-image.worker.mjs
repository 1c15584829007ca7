// Runs checkSignaturePixelsHere (signature-image.ts) off the event loop, with the memory limit
// and deadline createBoundedWorker gives the thread.
import { parentPort } from 'node:worker_threads';
import { importBeside } from '../../lib/worker-import.mjs';
import { lowerThreadPriority } from '../../lib/worker-priority.mjs';

lowerThreadPriority();

const { checkSignaturePixelsHere } = await importBeside('./signature-image', import.meta.url);

parentPort.on('message', ({ image }) => {
  try {
    parentPort.postMessage({
      result: checkSignaturePixelsHere(
        Buffer.from(image.buffer, image.byteOffset, image.byteLength),
      ),
    });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
});
