import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';

/** A quick-create being streamed by hand, so a test can act while its body is in flight. */
export type StreamedUpload = {
  /** Resolves with the status code, or with the socket error when the server died. */
  done: Promise<number | Error>;
  /** Bytes of the file part written so far. */
  written: () => number;
};

/**
 * Streams a multipart quick-create to `baseUrl` in `chunkBytes` pieces, `pauseMs` apart, so the
 * upload stays in flight long enough to kill the server under it.
 */
export function streamQuickCreate(options: {
  baseUrl: string;
  apiKey: string;
  tenantId: string;
  file: Buffer;
  chunkBytes?: number;
  pauseMs?: number;
}): StreamedUpload {
  const boundary = `----signet-fault-${randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('tenantId', options.tenantId) +
      field('signees', JSON.stringify([{ email: 'kill@example.com', name: 'Kim Kill' }])) +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.pdf"\r\ncontent-type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = options.chunkBytes ?? 256 * 1024;
  let written = 0;
  const done = new Promise<number | Error>((resolve) => {
    const req = request(`${options.baseUrl}/api/documents/quick-create`, {
      method: 'POST',
      headers: {
        'x-api-key': options.apiKey,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + options.file.length + tail.length),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (err) => resolve(err));
    req.write(head);
    const pump = () => {
      if (req.destroyed) return;
      if (written >= options.file.length) {
        req.end(tail);
        return;
      }
      const piece = options.file.subarray(written, written + chunk);
      written += piece.length;
      req.write(piece);
      setTimeout(pump, options.pauseMs ?? 20);
    };
    pump();
  });
  return { done, written: () => written };
}

/** Every file under DATA_DIR/files/documents (or another prefix), as keys with their size. */
export function storedFiles(
  dataDir: string,
  prefix = 'documents',
): Array<{ key: string; size: number }> {
  const root = path.join(dataDir, 'files');
  let entries: string[];
  try {
    entries = readdirSync(path.join(root, prefix), { recursive: true }) as string[];
  } catch {
    return [];
  }
  return entries
    .map((e) => path.join(root, prefix, e))
    .filter((full) => statSync(full).isFile())
    .map((full) => ({
      key: path.relative(root, full).split(path.sep).join('/'),
      size: statSync(full).size,
    }));
}

/** Polls until the predicate holds. */
export async function waitUntil(
  predicate: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
