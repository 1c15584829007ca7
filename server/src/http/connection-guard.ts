import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger, onRequestHookHandler } from 'fastify';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpLimits } from '../config.js';
import { AppError } from '../lib/errors.js';

/** One open connection, as the guard sees it. */
type Tracked = {
  socket: Socket;
  address: string;
  /** The request being received or answered on it, if any. */
  req: IncomingMessage | null;
  res: ServerResponse | null;
  /** The current body window: the socket's bytes when it began, and when (the coarse clock). */
  markBytes: number;
  markAt: number;
  /**
   * The socket's bytes at the last sweep (or the request's start) and its time, and whether the
   * body came slower than the minimum rate in the period before: what makes a body evictable at
   * a cap before its window ends.
   */
  sweptBytes: number;
  sweptAt: number;
  slow: boolean;
};

type Verdict = 'busy' | 'stalled' | 'unjudged';

/** An upload in flight: the request, on its connection. */
type Upload = { t: Tracked; req: IncomingMessage };

/** Why a connection was cut; the `reason` of its log line. */
export type CutReason =
  | 'headers_timeout'
  | 'request_timeout'
  | 'slow_body'
  | 'address_cap'
  | 'address_cap_refused'
  | 'connection_cap'
  | 'connection_cap_refused'
  | 'upload_cap';

/** What the guard exposes to the app: the upload gate and figures for tests and metrics. */
export type ConnectionGuard = {
  /** An onRequest hook for the upload routes: caps the address's uploads in flight. */
  admitUpload: onRequestHookHandler;
  /** The caps in force, after deriving the global one from the descriptor limit. */
  caps: { soft: number; hard: number };
  /** Connections open now. */
  size: () => number;
};

// Descriptors kept for everything but client connections: the database, log output, worker
// threads, the storage files being read for downloads.
const RESERVED_DESCRIPTORS = 256;
// No connection is judged in its first moment: an honest request's headers, or its body's
// first bytes, may be on their way.
const JUDGE_MS = 100;

/**
 * The soft limit on open descriptors (RLIMIT_NOFILE) from /proc/self/limits; Node has no
 * getrlimit. Elsewhere than Linux, the common default of 1024.
 */
export function descriptorLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    if (soft === 'unlimited') return 1 << 20;
    if (soft && /^\d+$/.test(soft)) return Number(soft);
  } catch {
    // not Linux
  }
  return 1024;
}

/**
 * The global caps: past `soft` connections, a stalled one is evicted for each newcomer; `hard`
 * (server.maxConnections) is where Node refuses outright. The room between them lets a newcomer
 * (a health probe) in when nothing is stalled. Derived, half the descriptors left after the
 * reserve go to connections: each may hold a second one, the file of an upload.
 */
export function connectionCaps(configured: number | null, fdLimit = descriptorLimit()) {
  const room = (n: number) => Math.min(64, Math.max(8, Math.floor(n / 8)));
  if (configured !== null) return { soft: configured, hard: configured + room(configured) };
  const usable = Math.max(16, Math.floor((fdLimit - RESERVED_DESCRIPTORS) / 2));
  return { soft: usable - room(usable), hard: usable };
}

// How often the guard looks at every connection: a few times per body window, at most once
// a second. Also Node's own period for checking headersTimeout and requestTimeout.
function sweepPeriod(limits: HttpLimits): number {
  return Math.max(25, Math.min(1000, Math.floor(limits.bodyWindowMs / 4)));
}

/**
 * Fastify's server options for the limits Node enforces itself: headers and whole-request
 * timeouts (answered 408), and the keep-alive idle timeout.
 */
export function httpServerOptions(limits: HttpLimits) {
  const headersTimeout =
    limits.requestTimeoutMs > 0
      ? Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs)
      : limits.headersTimeoutMs;
  return {
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: sweepPeriod(limits),
    } satisfies ServerOptions,
  };
}

// The answer to a body cut for its slowness, when nothing was answered yet. Written on the
// socket directly: the request's own handler may be waiting for that body.
const SLOW_BODY_ANSWER = (() => {
  const body = JSON.stringify({
    type: 'urn:signet:problem:request_timeout',
    title: 'Request timeout',
    status: 408,
    detail: 'The request body arrived too slowly.',
    code: 'request_timeout',
  });
  return (
    'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n' +
    `Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
})();

/**
 * Keeps slow and numerous clients from holding the server: a body slower than the minimum
 * rate is cut, each address may hold so many connections and uploads, and the process so many
 * connections. At a cap the newcomer is let in and a stalled connection (waiting for headers,
 * idle, or in a slow body) evicted instead, so an honest request from an attacker's own address
 * is still served. Every cut is logged with its reason, address, method and bytes received (not
 * the URL: it may hold a token).
 *
 * Nothing here runs per request but two Map updates; the rate rule is one shared sweep, which
 * reads each socket's byte count.
 */
export function installConnectionGuard(
  server: Server,
  limits: HttpLimits,
  log: FastifyBaseLogger,
  trustProxy: boolean | string = false,
): ConnectionGuard {
  const caps = connectionCaps(limits.maxConnections);
  const fromProxy = trustedPeer(trustProxy);
  server.maxConnections = caps.hard;
  const period = sweepPeriod(limits);
  // Ordered from the connection whose last request began longest ago, the likeliest stalled.
  const connections = new Map<Socket, Tracked>();
  const byAddress = new Map<string, Set<Tracked>>();
  let now = performance.now();

  const forget = (t: Tracked) => {
    if (!connections.delete(t.socket)) return;
    const mine = byAddress.get(t.address);
    mine?.delete(t);
    if (mine?.size === 0) byAddress.delete(t.address);
  };
  function onClose(this: Socket) {
    const t = connections.get(this);
    if (t) forget(t);
  }
  const report = (reason: CutReason, address: string, method: string | null, bytes: number) =>
    log.warn(
      { reason, clientAddress: address, method, bytesReceived: bytes },
      'connection cut by the connection guard',
    );
  const cut = (t: Tracked, reason: CutReason) => {
    report(reason, t.address, t.req?.method ?? null, t.socket.bytesRead);
    forget(t);
    // Only a body cut for its slowness is answered: an evicted connection is almost always an
    // attacker's, and the write was a third of what an eviction cost under a flood.
    if (reason === 'slow_body' && !t.res!.headersSent && t.socket.writable) {
      t.socket.write(SLOW_BODY_ANSWER);
    }
    t.socket.destroy();
  };

  // What evicting a connection would cost. BUSY: its request is being answered, or its body
  // comes at the minimum rate or better (or the service is not reading it): never evicted.
  // STALLED: idle between requests, its headers not done after a moment (JUDGE_MS), or its body
  // slower than the minimum rate over the last sweep's period or since. UNJUDGED: too young to
  // tell (an honest request's headers may be on their way), evicted only when nothing is
  // stalled, and then the oldest.
  const verdict = (t: Tracked, at: number): Verdict => {
    const req = t.req;
    if (req !== null && req.complete && !t.res!.writableEnded) return 'busy';
    const young = at - t.sweptAt < JUDGE_MS;
    if (req === null || req.complete) return young ? 'unjudged' : 'stalled';
    if (req.readableLength > 0 || req.isPaused()) return 'busy';
    if (t.slow) return 'stalled';
    if (young) return 'unjudged';
    const bytes = t.socket.bytesRead - t.sweptBytes;
    return bytes * limits.bodyWindowMs < limits.bodyMinBytes * (at - t.sweptAt)
      ? 'stalled'
      : 'busy';
  };

  // The oldest stalled connection among the first `limit`, else the oldest unjudged one.
  const pickVictim = (candidates: Iterable<Tracked>, limit: number) => {
    const at = performance.now();
    let unjudged: Tracked | null = null;
    let seen = 0;
    for (const t of candidates) {
      const v = verdict(t, at);
      if (v === 'stalled') return t;
      if (v === 'unjudged') unjudged ??= t;
      if (++seen >= limit) break;
    }
    return unjudged;
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const mine = byAddress.get(address);
    // A proxy named in TRUST_PROXY carries every client's connections: only the global cap
    // applies to it (and the upload cap, counted by the client address it forwards).
    if (mine && mine.size >= limits.maxConnectionsPerAddress && !fromProxy(address)) {
      const victim = pickVictim(mine, Infinity);
      if (!victim) {
        report('address_cap_refused', address, null, 0);
        socket.destroy();
        return;
      }
      cut(victim, 'address_cap');
    }
    if (connections.size >= caps.soft) {
      // A bounded look at the front: connections there began their last request longest ago.
      const victim = pickVictim(connections.values(), 1024);
      if (victim) cut(victim, 'connection_cap');
    }
    const t: Tracked = {
      socket,
      address,
      req: null,
      res: null,
      markBytes: 0,
      markAt: now,
      sweptBytes: 0,
      // Exact, unlike the sweep's clock: how long its headers take is judged on it.
      sweptAt: performance.now(),
      slow: false,
    };
    connections.set(socket, t);
    // Looked up again: a cut above may have emptied the address's set, and forgotten it.
    const set = byAddress.get(address);
    if (set) set.add(t);
    else byAddress.set(address, new Set([t]));
    socket.once('close', onClose);
  });
  server.on('drop', (data?: { remoteAddress?: string }) =>
    report('connection_cap_refused', data?.remoteAddress ?? 'unknown', null, 0),
  );

  // Before Fastify's handler, whose synchronous hooks (admitUpload) read what this sets.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const t = connections.get(req.socket);
    if (!t) return;
    t.req = req;
    t.res = res;
    t.markBytes = t.sweptBytes = req.socket.bytesRead;
    // The exact time, not the sweep's: a body is judged on it at a cap, long before a sweep,
    // and its first window is never shorter than HTTP_BODY_WINDOW_MS.
    t.markAt = t.sweptAt = performance.now();
    t.slow = false;
    // To the back: the connection that began a request last is the least likely stalled.
    connections.delete(req.socket);
    connections.set(req.socket, t);
  });

  // Node's own headers and whole-request timeouts: Fastify answers 408; this says so in the log.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code !== 'ERR_HTTP_REQUEST_TIMEOUT') return;
    const t = connections.get(socket);
    const inBody = t?.req && !t.req.complete;
    report(
      inBody ? 'request_timeout' : 'headers_timeout',
      t?.address ?? socket.remoteAddress ?? 'unknown',
      inBody ? t.req!.method! : null,
      socket.bytesRead,
    );
    if (t) forget(t);
  });

  const sweep = () => {
    // A late sweep follows a busy event loop: what clients sent meanwhile may still sit unread
    // in the kernel's buffers (timers run before the poll that reads them). That time is not
    // counted against them.
    const at = performance.now();
    const lateBy = at - now - period;
    now = at;
    for (const t of connections.values()) {
      const req = t.req;
      if (req === null) continue;
      if (req.complete) {
        // Answered: let the request and its response go before the next one arrives.
        if (t.res!.writableEnded) t.req = t.res = null;
        continue;
      }
      const bytes = t.socket.bytesRead;
      if (req.readableLength > 0 || req.isPaused()) {
        // The service is not reading (yet), its own backpressure: the client is not to blame
        // for this window.
        t.markBytes = t.sweptBytes = bytes;
        t.markAt = t.sweptAt = now;
        t.slow = false;
        continue;
      }
      if (lateBy > period / 2) {
        t.sweptBytes = bytes;
        t.sweptAt = now;
        t.markAt += lateBy;
        t.slow = false;
        continue;
      }
      // Judged over JUDGE_MS at least: a request that began just before this sweep is judged at
      // the next one.
      const elapsed = now - t.sweptAt;
      if (elapsed >= JUDGE_MS) {
        t.slow = (bytes - t.sweptBytes) * limits.bodyWindowMs < limits.bodyMinBytes * elapsed;
        t.sweptBytes = bytes;
        t.sweptAt = now;
      }
      if (now - t.markAt >= limits.bodyWindowMs) {
        if (bytes - t.markBytes < limits.bodyMinBytes) cut(t, 'slow_body');
        else {
          t.markBytes = bytes;
          t.markAt = now;
        }
      }
    }
  };
  const timer = setInterval(() => {
    sweep();
    pruneUploads();
  }, period).unref();
  server.once('close', () => clearInterval(timer));

  // Uploads in flight per client address: the address Fastify gives (request.ip), which behind
  // a proxy named in TRUST_PROXY is the client's, not the proxy's that every connection shares.
  const uploads = new Map<string, Upload[]>();
  const inFlight = (u: Upload) =>
    u.t.req === u.req && !u.req.complete && connections.get(u.t.socket) === u.t;
  const pruneUploads = () => {
    for (const [client, list] of uploads) {
      const live = list.filter(inFlight);
      if (live.length > 0) uploads.set(client, live);
      else uploads.delete(client);
    }
  };

  const admitUpload: onRequestHookHandler = (request, _reply, done) => {
    const t = connections.get(request.raw.socket);
    const type = request.headers['content-type'];
    if (!t || !type || !/^multipart\//i.test(type)) return done();
    const list = (uploads.get(request.ip) ?? []).filter(inFlight);
    uploads.set(request.ip, list);
    if (list.length >= limits.maxUploadsPerAddress) {
      const at = performance.now();
      const victim = list.findIndex((u) => verdict(u.t, at) === 'stalled');
      if (victim < 0) {
        return done(
          new AppError(
            'rate_limited',
            `At most ${limits.maxUploadsPerAddress} uploads at a time from one address.`,
            { headers: { 'retry-after': '1' } },
          ),
        );
      }
      cut(list[victim].t, 'upload_cap');
      list.splice(victim, 1);
    }
    list.push({ t, req: request.raw });
    done();
  };

  return { admitUpload, caps, size: () => connections.size };
}

/** Whether a peer is a proxy named in TRUST_PROXY, matched as Fastify matches it. */
function trustedPeer(trustProxy: boolean | string): (address: string) => boolean {
  if (trustProxy === true) return () => true;
  if (!trustProxy) return () => false;
  const trusted = proxyAddr.compile(trustProxy.split(',').map((a) => a.trim()));
  return (address) => trusted(address, 0);
}
