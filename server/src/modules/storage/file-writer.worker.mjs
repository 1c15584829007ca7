// @ts-check
// The writer thread of file-writer.ts (plain JavaScript: a worker runs outside tsx's loader).
// Each file arrives as batches tagged with the id of its write: a batch is a slot of the memory
// shared with the event loop, and how many of its bytes to take. The first batch names the
// target, and the last one asks for the end. Bytes go to the target if it is new, else to a
// temporary name beside it, and into a SHA-256 as they come; at the end the file is fsynced (in
// libuv's pool, so other files go on meanwhile), closed, and a temporary one renamed into place
// and its folder fsynced. Every message gets one answer, which frees its slot: an ack, the
// written file's size and digest, or its error. A failed file is removed.
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, fsync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

/** @typedef {{ fd: number; temp: string | null; unfinished: string | null; target: string; hash: import('node:crypto').Hash; size: number }} OpenFile */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const { memory, slotBytes } = /** @type {{ memory: SharedArrayBuffer; slotBytes: number }} */ (
  workerData
);
/** @type {Map<number, OpenFile>} */
const files = new Map();

port.on(
  'message',
  /** @param {{ id: number; target?: string; slot?: number; length?: number; end?: boolean; abort?: boolean }} m */
  (m) => {
    try {
      let file = files.get(m.id);
      if (m.abort) {
        if (file) discard(m.id, file);
        port.postMessage({ id: m.id });
        return;
      }
      if (!file) {
        if (m.target === undefined) throw new Error(`no file is being written as ${m.id}`);
        file = create(m.id, m.target);
      }
      if (m.slot !== undefined) append(file, new Uint8Array(memory, m.slot * slotBytes, m.length));
      if (m.end) finish(m.id, file);
      else port.postMessage({ id: m.id });
    } catch (err) {
      fail(m.id, err);
    }
  },
);

/** @param {number} id @param {string} target */
function create(id, target) {
  // A new key is written in place: nothing refers to it before the write is answered, and the
  // fsync of a new file makes its directory entry durable too (ext4 with or without a journal,
  // XFS, btrfs). A key that exists is replaced through a temporary name and a rename, so its
  // readers see the old file or the new one, never a part.
  /** @type {string | null} */
  let temp = null;
  let fd;
  try {
    fd = openNew(target);
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
    temp = `${target}.${randomUUID()}.partial`;
    fd = openNew(temp);
  }
  /** @type {OpenFile} */
  const file = {
    fd,
    temp,
    unfinished: temp ?? target,
    target,
    hash: createHash('sha256'),
    size: 0,
  };
  files.set(id, file);
  return file;
}

/** @param {string} name */
function openNew(name) {
  try {
    return openSync(name, 'wx');
  } catch (err) {
    // The folder is made on its first file only: making it is as costly as making the file.
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'ENOENT') throw err;
    mkdirSync(path.dirname(name), { recursive: true });
    return openSync(name, 'wx');
  }
}

/** @param {OpenFile} file @param {Uint8Array} bytes */
function append(file, bytes) {
  for (let done = 0; done < bytes.length;) done += writeSync(file.fd, bytes, done);
  file.hash.update(bytes);
  file.size += bytes.length;
}

/** @param {number} id @param {OpenFile} file */
function finish(id, file) {
  const done = () => {
    files.delete(id);
    port.postMessage({ id, size: file.size, sha256: file.hash.digest('hex') });
  };
  fsync(file.fd, (err) => {
    try {
      if (err) throw err;
      closeSync(file.fd);
      file.fd = -1;
      if (file.temp === null) return done();
      renameSync(file.temp, file.target);
      file.unfinished = null;
      // The rename is durable once its folder is.
      const folder = openSync(path.dirname(file.target), 'r');
      fsync(folder, (error) => {
        closeSync(folder);
        if (error) fail(id, error);
        else done();
      });
    } catch (error) {
      fail(id, error);
    }
  });
}

/** @param {number} id @param {OpenFile} file */
function discard(id, file) {
  files.delete(id);
  if (file.fd >= 0) closeSync(file.fd);
  // What this write created and did not finish: its temporary file, or the new file itself.
  if (file.unfinished !== null) rmSync(file.unfinished, { force: true });
}

/** @param {number} id @param {unknown} err */
function fail(id, err) {
  const file = files.get(id);
  try {
    if (file) discard(id, file);
  } finally {
    const { message, code } = /** @type {{ message?: string; code?: string }} */ (err ?? {});
    port.postMessage({ id, error: { message: message ?? String(err), code } });
  }
}
