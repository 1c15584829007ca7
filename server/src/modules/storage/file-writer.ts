import { Worker } from 'node:worker_threads';

// Bytes gathered into one batch for the writer thread. An upload arrives in chunks of a few KiB
// to 64 KiB; a batch is one copy and one message, whatever the number of chunks in it.
const BATCH_BYTES = 1024 * 1024;

/** What the writer thread is sent about write `id`: a batch, the end, or an abort. */
type Request = { id: number; target?: string; data?: ArrayBuffer; end?: boolean; abort?: boolean };

/** What the writer thread answers: an ack of a batch, the finished file, or an error. */
type Answer = {
  id: number;
  size?: number;
  sha256?: string;
  error?: { message: string; code?: string };
};

/** A file written whole: its size and the SHA-256 (hex) of its bytes. */
export type WrittenFile = { size: number; sha256: string };

/**
 * Writes files durably on a thread of its own: bytes go to a temporary name beside `target`,
 * are hashed there, fsynced and renamed into place, so the file appears whole or not at all.
 *
 * Why a thread: on the event loop, each of a file's mkdir, open, write, fsync, close and rename
 * is a round trip to libuv's pool, and together with the hash they were a third of the event
 * loop's time per upload (docs/architecture.md, "Performance"). Here the event loop copies the
 * bytes into batches of up to 1 MiB and hands each over without a further copy; the next batch
 * is gathered while the thread writes one, so memory stays bounded whatever the size. The
 * thread is started on first use, shared by the process, and does not keep it alive when idle.
 */
export async function writeFileDurably(
  target: string,
  chunks: AsyncIterable<Uint8Array> | Uint8Array[],
): Promise<WrittenFile> {
  const writer = fileWriter();
  const id = writer.nextId++;
  let first = true;
  let pending: Promise<Answer> | null = null;
  let batch: Uint8Array[] = [];
  let batched = 0;
  const send = async (end: boolean) => {
    // Copied into memory of its own, which moves to the thread: the chunks' buffers may be
    // slices of larger ones (the socket's) that must not be handed over.
    const data = new Uint8Array(new ArrayBuffer(batched));
    let offset = 0;
    for (const chunk of batch) {
      data.set(chunk, offset);
      offset += chunk.length;
    }
    batch = [];
    batched = 0;
    if (pending) await pending;
    pending = writer.request({ id, target: first ? target : undefined, data: data.buffer, end }, [
      data.buffer,
    ]);
    // Its error is met when the next batch or the end awaits it; until then it is not unhandled.
    pending.catch(() => {});
    first = false;
  };
  try {
    for await (const chunk of chunks) {
      batch.push(chunk);
      batched += chunk.length;
      if (batched >= BATCH_BYTES) await send(false);
    }
    await send(true);
    const { size, sha256 } = await pending!;
    return { size: size!, sha256: sha256! };
  } catch (err) {
    // Whatever failed (the source, or the thread), the temporary file goes, once the thread has
    // answered the batch it holds (one message per write at a time).
    await pending?.catch(() => {});
    if (!first) await writer.request({ id, abort: true }).catch(() => {});
    throw err;
  }
}

type Writer = {
  nextId: number;
  /** Sends one message about write `id` and resolves with its answer; one at a time per id. */
  request: (message: Request, transfer?: ArrayBuffer[]) => Promise<Answer>;
};

let current: Writer | null = null;

// The process's writer thread, started on first use and again after it died.
function fileWriter(): Writer {
  if (current) return current;
  const worker = new Worker(new URL('./file-writer.worker.mjs', import.meta.url));
  worker.unref();
  const waiting = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  worker.on('message', (answer: Answer) => {
    const waiter = waiting.get(answer.id);
    if (!waiter) return;
    waiting.delete(answer.id);
    if (waiting.size === 0) worker.unref();
    if (answer.error) {
      waiter.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    } else waiter.resolve(answer);
  });
  const died = (err: Error) => {
    if (current === writer) current = null;
    for (const { reject } of waiting.values()) reject(err);
    waiting.clear();
  };
  worker.on('error', died);
  worker.on('exit', (code) => died(new Error(`the file writer thread exited (${code})`)));
  const writer: Writer = {
    nextId: 1,
    request(message, transfer) {
      return new Promise<Answer>((resolve, reject) => {
        if (waiting.size === 0) worker.ref();
        waiting.set(message.id, { resolve, reject });
        worker.postMessage(message, transfer);
      });
    },
  };
  current = writer;
  return writer;
}
