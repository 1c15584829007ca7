import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../server/src/modules/storage/local-storage.js';

const run = promisify(execFile);

// Local storage writes through its writer thread (server/src/modules/storage/file-writer.ts);
// these check what a caller sees: whole files with their size and digest, nothing left behind on
// failure, and a thread that neither loses an answer nor keeps the process alive.
describe('local storage', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'signet-local-storage-'));
  const storage = createLocalStorage(root);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const allFiles = (dir = root): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? allFiles(path.join(dir, e.name)) : [path.join(dir, e.name)],
    );
  // Uneven chunks, as a socket delivers them, with a turn of the event loop between some.
  async function* chunked(bytes: Buffer, fail?: { after: number; error: Error }) {
    for (let at = 0, i = 0; at < bytes.length; i++) {
      if (fail && at >= fail.after) throw fail.error;
      const size = 1 + ((i * 7919) % 65536);
      yield bytes.subarray(at, at + size);
      at += size;
      if (i % 5 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('writes a streamed body whole and returns its size and SHA-256', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 12345);
    const key = 'documents/streamed/original.pdf';
    expect(await storage.put(key, chunked(bytes), 'application/pdf')).toEqual({
      size: bytes.length,
      sha256: sha256(bytes),
    });
    expect(readFileSync(path.join(root, key)).equals(bytes)).toBe(true);
    expect(allFiles().filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('writes buffers and many concurrent bodies, each to its own key', async () => {
    // More than the shared memory's slots are in use at once: some batches wait for a slot.
    const bodies = Array.from({ length: 40 }, (_, i) => randomBytes(1000 + i * 40_000));
    const results = await Promise.all(
      bodies.map((bytes, i) =>
        storage.put(`documents/c${i}/original.pdf`, i % 2 ? bytes : chunked(bytes), 'x'),
      ),
    );
    bodies.forEach((bytes, i) => {
      expect(results[i]).toEqual({ size: bytes.length, sha256: sha256(bytes) });
      expect(readFileSync(path.join(root, `documents/c${i}/original.pdf`)).equals(bytes)).toBe(
        true,
      );
    });
  });

  it('leaves nothing behind when the body fails midway, and rejects with its error', async () => {
    const error = new Error('client went away');
    const key = 'documents/failed/original.pdf';
    await expect(
      storage.put(
        key,
        chunked(randomBytes(4 * 1024 * 1024), { after: 2.5 * 1024 * 1024, error }),
        'x',
      ),
    ).rejects.toBe(error);
    expect(existsSync(path.join(root, key))).toBe(false);
    expect(allFiles().filter((f) => f.includes('/failed/'))).toEqual([]);
  });

  it('replaces an existing key whole: a reader sees the old file until the new one is done', async () => {
    const key = 'documents/replaced/sealed.pdf';
    const before = randomBytes(100_000);
    await storage.put(key, before, 'x');
    const after = randomBytes(2 * 1024 * 1024);
    let seenWhileWriting: Buffer | null = null;
    // Read once several batches have gone to the thread (one is answered before the next goes).
    async function* watched() {
      let sent = 0;
      for await (const chunk of chunked(after)) {
        if (sent > 1.5 * 1024 * 1024) seenWhileWriting ??= readFileSync(path.join(root, key));
        sent += chunk.length;
        yield chunk;
      }
    }
    expect(await storage.put(key, watched(), 'x')).toEqual({
      size: after.length,
      sha256: sha256(after),
    });
    expect(seenWhileWriting!.equals(before)).toBe(true);
    expect(readFileSync(path.join(root, key)).equals(after)).toBe(true);
    expect(allFiles().filter((f) => f.includes('/replaced/'))).toEqual([path.join(root, key)]);
  });

  it('keeps the existing file when its replacement fails midway', async () => {
    const key = 'documents/kept/sealed.pdf';
    const before = randomBytes(50_000);
    await storage.put(key, before, 'x');
    const error = new Error('seal interrupted');
    await expect(
      storage.put(key, chunked(randomBytes(3 * 1024 * 1024), { after: 1024 * 1024, error }), 'x'),
    ).rejects.toBe(error);
    expect(readFileSync(path.join(root, key)).equals(before)).toBe(true);
    expect(allFiles().filter((f) => f.includes('/kept/'))).toEqual([path.join(root, key)]);
  });

  it('reports a file system error with its code, and goes on serving', async () => {
    // A file where the key's folder would go.
    mkdirSync(path.join(root, 'documents'), { recursive: true });
    writeFileSync(path.join(root, 'documents', 'blocked'), 'not a folder');
    await expect(
      storage.put('documents/blocked/original.pdf', Buffer.from('%PDF-1.7'), 'x'),
    ).rejects.toMatchObject({ code: 'ENOTDIR' });
    // Streamed slowly: the error comes back while the next batch is still being read.
    async function* slow() {
      for (let i = 0; i < 64; i++) {
        yield randomBytes(32 * 1024);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
    await expect(storage.put('documents/blocked/original.pdf', slow(), 'x')).rejects.toMatchObject({
      code: 'ENOTDIR',
    });
    const bytes = randomBytes(5000);
    expect(await storage.put('documents/after/original.pdf', bytes, 'x')).toEqual({
      size: 5000,
      sha256: sha256(bytes),
    });
  });

  it('keeps the process alive until a write is answered, and not after', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'signet-writer-exit-'));
    const module = path.resolve('server/src/modules/storage/local-storage.ts');
    // The second write starts on an idle thread, and nothing but it keeps the event loop going.
    const script = `
      const { createLocalStorage } = await import(${JSON.stringify(module)});
      const storage = createLocalStorage(${JSON.stringify(dir)});
      await storage.put('a/first.pdf', Buffer.alloc(1000, 1), 'x');
      setTimeout(() => {
        storage.put('a/b.pdf', Buffer.alloc(300000, 1), 'x').then((r) => console.log('written', r.size));
      }, 50);
    `;
    try {
      writeFileSync(path.join(dir, 'write.mjs'), script);
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', path.join(dir, 'write.mjs')],
        { timeout: 30_000 },
      );
      expect(stdout.trim()).toBe('written 300000');
      expect(readFileSync(path.join(dir, 'a/b.pdf')).length).toBe(300000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
