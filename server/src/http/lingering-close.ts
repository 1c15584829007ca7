import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

// How much of a refused body is read and thrown away, and for how long, before the connection
// is cut. A 413 is answered before the body is read; a client still sending it (Node's fetch,
// Python's requests, browsers) would see its write fail (EPIPE, "fetch failed") instead of
// the answer if the connection closed at once. Draining lets it finish and read the 413.
export const LINGER_MAX_BYTES = 256 * 1024 * 1024;
export const LINGER_MAX_MS = 30_000;

const lingering = new Set<Socket>();

/**
 * Reads and discards the rest of a refused request's body, as web servers do in a lingering
 * close: the answer goes out at once, the connection stays open until the client has sent
 * everything (then it is reused or closed as usual), and is cut after LINGER_MAX_BYTES or
 * LINGER_MAX_MS. A multipart parser reading the body is detached first.
 */
export function drainRefusedBody(raw: IncomingMessage): void {
  const socket = raw.socket;
  if (raw.readableEnded || !socket || socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  let read = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, LINGER_MAX_MS).unref();
  const done = () => {
    clearTimeout(timer);
    lingering.delete(socket);
  };
  raw.unpipe();
  raw.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_MAX_BYTES) cut();
  });
  raw.once('end', done);
  socket.once('close', done);
  raw.resume();
}

/** Cuts every connection still draining: the service is shutting down. */
export function cutLingeringConnections(): void {
  for (const socket of lingering) socket.destroy();
  lingering.clear();
}
