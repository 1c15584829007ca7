import { createServer, type IncomingHttpHeaders } from 'node:http';

/** One request as a test receiver saw it. */
export type Received = {
  /** Wall-clock time (ms) when the request's headers arrived. */
  at: number;
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  /** Header names exactly as sent, lower-cased, in order. */
  headerNames: string[];
  body: Buffer;
};

/** How a path answers its n-th request (1-based). */
export type Behaviour = (
  request: Received,
  nth: number,
) => { status?: number; delayMs?: number; headers?: Record<string, string> };

/** A real HTTP receiver on 127.0.0.1 with per-path behaviour. */
export type Receiver = {
  port: number;
  /** TCP connections accepted so far (a refused connect never gets here). */
  connections: () => number;
  url: (path: string) => string;
  on: (path: string, behaviour: Behaviour) => void;
  received: (path: string) => Received[];
  waitFor: (path: string, count: number, timeoutMs?: number) => Promise<Received[]>;
  close: () => Promise<void>;
};

/** Starts a receiver; unknown paths answer 200. */
export async function startReceiver(): Promise<Receiver> {
  const behaviours = new Map<string, Behaviour>();
  const log: Received[] = [];
  const server = createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      const received: Received = {
        at,
        path,
        method: req.method ?? '',
        headers: req.headers,
        headerNames: req.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase()),
        body: Buffer.concat(chunks),
      };
      log.push(received);
      const nth = log.filter((r) => r.path === path).length;
      const reply = behaviours.get(path)?.(received, nth) ?? {};
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
        res.end('ok');
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const received = (path: string) => log.filter((r) => r.path === path);
  return {
    port,
    connections: () => connections,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    on: (path, behaviour) => behaviours.set(path, behaviour),
    received,
    waitFor: async (path, count, timeoutMs = 10_000) => {
      const end = Date.now() + timeoutMs;
      while (Date.now() < end) {
        if (received(path).length >= count) return received(path);
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`${path}: ${received(path).length} of ${count} requests arrived`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
