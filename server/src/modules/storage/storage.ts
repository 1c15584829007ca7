import { ensurePrivateDir } from '../../lib/private-dir.js';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { createLocalStorage } from './local-storage.js';

/** Where files live: local disk by default, or an S3-compatible bucket. Keys are ours, never user input. */
export type Storage = {
  /**
   * Streams a body to `key`, durably before it resolves; returns its size and the SHA-256 (hex)
   * of its bytes. An existing object is replaced whole: readers see the old one or the new one.
   * A new key may be visible part-written until then (local files are written in place), so
   * nothing may refer to a key before its put resolves; a failed put removes what it wrote.
   */
  put: (
    key: string,
    body: AsyncIterable<Uint8Array> | Buffer,
    contentType: string,
  ) => Promise<{ size: number; sha256: string }>;
  /** Streams an object; rejects with code 'ENOENT' when missing. */
  get: (key: string) => Promise<Readable>;
  /** Reads bytes [start, end] inclusive (for cheap structure checks of large files). */
  readRange: (key: string, start: number, end: number) => Promise<Buffer>;
  /** Removes an object; a missing one is not an error. */
  delete: (key: string) => Promise<void>;
  /** Lists keys under a prefix (cleanup of orphans). */
  list: (prefix: string) => Promise<Array<{ key: string; modifiedAt: Date }>>;
  /**
   * The file of `key` on this machine's disk, for local storage only: a worker thread can read
   * it in one call, where a stream on the event loop takes a trip to libuv's pool per step.
   */
  localPath?: (key: string) => string;
};

/** Reads a whole object into memory (small files: signature images, sealed output checks). */
export async function readAll(storage: Storage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Local files in DATA_DIR/files unless STORAGE_URL selects a bucket. The S3 client is loaded only
 * then: it is a tenth of the server's memory otherwise spent on nothing.
 */
export async function createStorage(config: {
  dataDir: string;
  storageUrl: string | null;
}): Promise<Storage> {
  if (config.storageUrl) {
    const { createS3Storage, parseStorageUrl } = await import('./s3-storage.js');
    return createS3Storage(parseStorageUrl(config.storageUrl));
  }
  ensurePrivateDir(config.dataDir);
  return createLocalStorage(path.join(config.dataDir, 'files'));
}
