// Runs sealPdf (seal-pdf.ts) off the event loop, with the memory limit and deadline
// createBoundedWorker gives the thread (seal-worker.ts). A `{warmUp}` message seals a document
// of our own and throws it away (seal-warmup.ts), answering how many the thread has sealed. An
// `attachOnly` reason seals without reading the original (seal.job.ts's fallback). An
// `{auditCertificate}` message makes a document's audit certificate alone (audit-certificate.ts).
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { importBeside } from '../../lib/worker-import.mjs';

const { sealPdf } = await importBeside('./seal-pdf', import.meta.url);
const { warmUpInput } = await importBeside('./seal-warmup', import.meta.url);
const { buildAuditCertificate } = await importBeside('./audit-certificate', import.meta.url);
let seals = 0;

parentPort.on('message', async (input) => {
  try {
    if (input.warmUp) {
      const { certificate, sandbox } = input.warmUp;
      await sealPdf(await warmUpInput(seals, certificate, sandbox));
      parentPort.postMessage({ result: { seals: ++seals } });
      return;
    }
    if (input.auditCertificate) {
      const bytes = await buildAuditCertificate(input.auditCertificate);
      parentPort.postMessage({ result: bytes }, [bytes.buffer]);
      return;
    }
    if (input.originalPath) input.original = readFileSync(input.originalPath);
    const sealed = await sealPdf(input, { attachOnly: input.attachOnly });
    seals++;
    parentPort.postMessage({ result: sealed }, [sealed.bytes.buffer]);
  } catch (err) {
    parentPort.postMessage({
      error: err instanceof Error ? err.message : String(err),
      errorName: err instanceof Error ? err.name : undefined,
    });
  }
});
