import { Worker } from 'node:worker_threads';

// The memory shared with the writer thread: SLOTS slots of SLOT_BYTES. A batch is the bytes
// copied into one slot and handed over with one message; an upload arrives in chunks of a few KiB
// to 64 KiB, so a batch holds many, or part of a large one. A write holds at most two slots (one
// with the thread, one being filled); when all are taken, the next batch waits for one.
const SLOT_BYTES = 256 * 1024;
const SLOTS = 32;
// A wait for the source's next chunk longer than this marks it slow (see writeFileDurably).
const SLOW_SOURCE_MS = 50;

/** What the writer thread is sent about write `id`: a batch, the end, or an abort. */
type Request = {
  id: number;
  target?: string;
  /** The slot holding the batch, and how many of its bytes to write. */
  slot?: number;
  length?: number;
  end?: boolean;
  abort?: boolean;
};

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
 * Writes files durably on a thread of its own: a new `target` is written in place, one that
 * exists is replaced through a temporary name and a rename (readers see the old file or the new
 * one); the bytes are hashed there and fsynced before the answer.
 *
 * Why a thread: on the event loop, each of a file's open, write, fsync and close is a round
 * trip to libuv's pool, and together with the hash they were a third of the event loop's time
 * per upload (docs/architecture.md, "Performance"). Here the event loop only copies the bytes
 * into memory it shares with the thread. Shared, not transferred: buffers moved between
 * threads count as new external memory on each arrival, and at a few hundred uploads a second
 * that alone set off a full garbage collection several times a second. The thread is started
 * on first use, shared by the process, and does not keep it alive when idle.
 */
export async function writeFileDurably(
  target: string,
  chunks: AsyncIterable<Uint8Array> | Uint8Array[],
): Promise<WrittenFile> {
  const writer = fileWriter();
  const id = writer.nextId++;
  let first = true;
  // Assigned in send(), which the compiler's narrowing does not follow.
  let pending = null as Promise<Answer> | null;
  let slot: number | null = null;
  let filled = 0;
  const send = async (end: boolean) => {
    const batch = { slot: slot ?? undefined, length: filled };
    slot = null;
    filled = 0;
    if (pending) await pending;
    pending = writer.request({ id, target: first ? target : undefined, ...batch, end });
    // Its error is met when the next batch or the end awaits it; until then it is not unhandled.
    pending.catch(() => {});
    first = false;
  };
  // When the source last left us waiting for its next chunk.
  let waitingSince = performance.now();
  try {
    for await (const chunk of chunks) {
      // A source that keeps us waiting (a slow client) has its batch handed over at once rather
      // than when the slot is full: else 32 uploads trickling just above the minimum rate
      // (http/connection-guard.ts) held every slot for minutes, and every other upload waited.
      const slowSource = performance.now() - waitingSince > SLOW_SOURCE_MS;
      for (let at = 0; at < chunk.length;) {
        slot ??= await writer.acquire();
        const n = Math.min(chunk.length - at, SLOT_BYTES - filled);
        writer.slots[slot].set(n === chunk.length ? chunk : chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === SLOT_BYTES) await send(false);
      }
      if (slowSource && filled > 0) await send(false);
      waitingSince = performance.now();
    }
    await send(true);
    const { size, sha256 } = await pending!;
    return { size: size!, sha256: sha256! };
  } catch (err) {
    if (slot !== null) writer.release(slot);
    // Whatever failed (the source, or the thread), the unfinished file goes (the new one, or the
    // temporary one of a replacement), once the thread has answered the batch it holds (one
    // message per write at a time).
    await pending?.catch(() => {});
    if (!first) await writer.request({ id, abort: true }).catch(() => {});
    throw err;
  }
}

type Writer = {
  nextId: number;
  /** A view of each slot of the shared memory. */
  slots: Uint8Array[];
  /** A free slot, once there is one. */
  acquire: () => Promise<number>;
  release: (slot: number) => void;
  /**
   * Sends one message about write `id` (one at a time per id) and resolves with its answer; the
   * message's slot is free again once answered.
   */
  request: (message: Request) => Promise<Answer>;
};

let current: Writer | null = null;

// The process's writer thread, started on first use and again after it died.
function fileWriter(): Writer {
  if (current) return current;
  const memory = new SharedArrayBuffer(SLOTS * SLOT_BYTES);
  const worker = new Worker(new URL('./file-writer.worker.mjs', import.meta.url), {
    workerData: { memory, slotBytes: SLOT_BYTES },
  });
  worker.unref();
  const free = Array.from({ length: SLOTS }, (_, i) => SLOTS - 1 - i);
  const awaitingSlot: Array<{ resolve: (slot: number) => void; reject: (e: Error) => void }> = [];
  const release = (slot: number) => {
    const next = awaitingSlot.shift();
    if (next) next.resolve(slot);
    else free.push(slot);
  };
  let death: Error | null = null;
  const waiting = new Map<
    number,
    { resolve: (a: Answer) => void; reject: (e: Error) => void; slot?: number }
  >();
  worker.on('message', (answer: Answer) => {
    const waiter = waiting.get(answer.id);
    if (!waiter) return;
    waiting.delete(answer.id);
    if (waiting.size === 0) worker.unref();
    if (waiter.slot !== undefined) release(waiter.slot);
    if (answer.error) {
      waiter.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    } else waiter.resolve(answer);
  });
  // Every write in progress fails with the thread; the next one starts a new thread.
  const died = (err: Error) => {
    death ??= err;
    if (current === writer) current = null;
    for (const { reject } of [...waiting.values(), ...awaitingSlot]) reject(death);
    waiting.clear();
    awaitingSlot.length = 0;
  };
  worker.on('error', died);
  worker.on('exit', (code) => died(new Error(`the file writer thread exited (${code})`)));
  const writer: Writer = {
    nextId: 1,
    slots: Array.from(
      { length: SLOTS },
      (_, i) => new Uint8Array(memory, i * SLOT_BYTES, SLOT_BYTES),
    ),
    acquire: () => {
      if (death) return Promise.reject(death);
      const slot = free.pop();
      return slot === undefined
        ? new Promise((resolve, reject) => awaitingSlot.push({ resolve, reject }))
        : Promise.resolve(slot);
    },
    release,
    request(message) {
      return new Promise<Answer>((resolve, reject) => {
        if (death) return reject(death);
        if (waiting.size === 0) worker.ref();
        waiting.set(message.id, { resolve, reject, slot: message.slot });
        worker.postMessage(message);
      });
    },
  };
  current = writer;
  return writer;
}
