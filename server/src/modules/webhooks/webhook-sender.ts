import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { IPV4_COMPATIBLE_CIDR, isLoopbackUrl } from './webhook-url.js';

/** What one HTTP attempt produced: a status code, or an error when no response came. */
export type SendResult = { statusCode: number | null; error: string | null; durationMs: number };

/** One POST to a callback URL. */
export type SendRequest = { url: string; body: Buffer; headers: Record<string, string> };

/** Posts webhook bodies through SSRF-filtering, keep-alive agents. */
export type WebhookSender = {
  send: (request: SendRequest) => Promise<SendResult>;
  close: () => void;
};

/**
 * Builds the sender. Every connection's address is checked after DNS resolution (and IP
 * literals before connecting) by request-filtering-agent, so a name that resolves to 127.0.0.1
 * is refused even if it resolved elsewhere when the URL was saved. `lookup` replaces DNS for
 * tests; `allowPrivate` is WEBHOOK_ALLOW_PRIVATE_URLS, `allowLoopback` the sandbox's own machine.
 */
export function createWebhookSender(options: {
  allowPrivate: boolean;
  allowLoopback?: boolean;
  timeoutMs: number;
  lookup?: LookupFunction;
}): WebhookSender {
  const agentOptions = {
    keepAlive: true,
    maxSockets: 64,
    allowPrivateIPAddress: options.allowPrivate,
    denyIPAddressList: options.allowPrivate ? [] : [IPV4_COMPATIBLE_CIDR],
    allowIPAddressList: options.allowLoopback ? ['127.0.0.0/8', '::1'] : [],
  };
  const agents = {
    'http:': new RequestFilteringHttpAgent(agentOptions),
    'https:': new RequestFilteringHttpsAgent(agentOptions),
  };

  function send(request: SendRequest): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return Promise.resolve({ statusCode: null, error: 'invalid URL', durationMs: 0 });
    }
    // Saved URLs were checked, but the flag may have been turned off since: never send a
    // signed body in clear text or with credentials unless development mode allows it.
    const plainAllowed =
      options.allowPrivate || (!!options.allowLoopback && isLoopbackUrl(request.url));
    if (url.protocol !== 'https:' && !(plainAllowed && url.protocol === 'http:')) {
      return Promise.resolve({
        statusCode: null,
        error: `refused: ${url.protocol} callback URLs are not allowed`,
        durationMs: 0,
      });
    }
    if (url.username || url.password) {
      return Promise.resolve({
        statusCode: null,
        error: 'refused: credentials in URL',
        durationMs: 0,
      });
    }
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const settle = (statusCode: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        resolve({ statusCode, error, durationMs: elapsed() });
      };
      const req = transport.request(url, {
        method: 'POST',
        agent: agents[url.protocol as 'http:' | 'https:'],
        headers: { ...request.headers, 'Content-Length': String(request.body.length) },
        ...(options.lookup ? { lookup: options.lookup } : {}),
      });
      // One deadline for the whole attempt (DNS, connect, TLS, response); it also cuts off a
      // response body still streaming after the status arrived, so a socket is never held.
      const timer = setTimeout(() => {
        settle(null, `timed out after ${options.timeoutMs} ms`);
        req.destroy();
      }, options.timeoutMs);
      req.on('response', (res) => {
        const code = res.statusCode ?? 0;
        // node:http never follows redirects; a 3xx is a failed attempt like any non-2xx.
        const location = res.headers.location ? ` (Location: ${res.headers.location})` : '';
        settle(code, code >= 300 && code < 400 ? `redirect not followed${location}` : null);
        res.on('end', () => clearTimeout(timer));
        res.on('error', () => clearTimeout(timer));
        res.resume();
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        settle(null, describeError(err));
      });
      req.end(request.body);
    });
  }

  return {
    send,
    close: () => {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function describeError(err: Error & { code?: string }): string {
  // request-filtering-agent's wording: "DNS lookup 127.0.0.1(family:4, host:x) is not allowed…".
  const refused = /^DNS lookup (\S+?)\(.*is not allowed/.exec(err.message);
  if (refused) return `refused: ${refused[1]} is not a public address`;
  return err.code ? `${err.code}: ${err.message}` : err.message;
}
