import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The headers helmet would set for these options, computed once. Our options hold no per-request
 * parts (no CSP nonces, no directive functions), so every response carries the same set; running
 * helmet's middleware per request (as @fastify/helmet does, rebuilding it each time) cost a fifth
 * of a simple authenticated request's CPU.
 */
export function staticSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * What an API response carries instead (every path under `/api/`: JSON, problem+json, PDF
 * downloads as attachments): the headers that protect a response that is not an HTML page, as
 * in OWASP's REST Security Cheat Sheet, `Cache-Control: no-store` among them. The rest of
 * helmet's set governs how a browser runs a document (script sources, openers, DNS
 * prefetching, IE's and Flash's quirks) and only cost bytes here: each header is about 0.2 µs
 * of a request's CPU, plus its share of the write.
 */
function apiSecurityHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    // Nothing in a JSON answer may load or be framed, if a browser ever renders one.
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    // Other sites cannot pull an answer into their pages with a no-cors request.
    'cross-origin-resource-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    // Answers hold documents, names and e-mail addresses for one caller: no browser or proxy
    // keeps a copy (a browser's disk cache outlives the session on a shared computer).
    'cache-control': 'no-store',
  };
  const hsts = pageHeaders['strict-transport-security'];
  if (hsts !== undefined) headers['strict-transport-security'] = hsts;
  return headers;
}

/**
 * Adds the security headers to every response, the 404s and errors included: helmet's to pages,
 * the API's own set to paths under `/api/`.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const pageHeaders = staticSecurityHeaders(options);
  const apiHeaders = apiSecurityHeaders(pageHeaders);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : pageHeaders);
    done();
  });
}
