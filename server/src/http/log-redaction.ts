import type { FastifyRequest, FastifyServerOptions } from 'fastify';

// Links whose next path segment is their secret: /sign/{token}, /api/signing/{token}/…
const PAGE_LINKS = new Set(['sign', 't', 'invitations']);
const API_LINKS = new Set(['signing', 'invitations', 'copies']);
// Secrets the service hands out, recognisable wherever they appear in a path.
const SECRET_PREFIX = /^(sg|iv|ev|pr|sc|ss|whsec|sk_test|sk_live)_/;
// Query parameters that carry a secret: e-mailed links' tokens, download URLs' signatures, an
// integrator's identity assertion, one-time codes.
const SECRET_PARAMS = new Set(['token', 'signature', 'identity', 'code', 'secret', 'key']);

function decoded(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A request URL as it may be logged: the token of a signing, invitation or copy link replaced
 * by `[token]`, and the values of `token`, `signature` and other secret query parameters by
 * `[redacted]`. Whoever reads the logs holds no working link.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const segments = path.split('/');
  const word = (i: number) => decoded(segments[i] ?? '').toLowerCase();
  const linkAt = PAGE_LINKS.has(word(1)) ? 2 : word(1) === 'api' && API_LINKS.has(word(2)) ? 3 : -1;
  for (let i = 1; i < segments.length; i++) {
    if (segments[i] && (i === linkAt || SECRET_PREFIX.test(decoded(segments[i])))) {
      segments[i] = '[token]';
    }
  }
  if (q === -1) return segments.join('/');
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decoded(eq === -1 ? pair : pair.slice(0, eq)).toLowerCase();
      const value = eq === -1 ? '' : decoded(pair.slice(eq + 1));
      return SECRET_PARAMS.has(name) || SECRET_PREFIX.test(value)
        ? `${pair.slice(0, eq === -1 ? pair.length : eq)}=[redacted]`
        : pair;
    })
    .join('&');
  return `${segments.join('/')}?${query}`;
}

/** What a request log line says of its request: Fastify's default fields, the URL redacted. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: [request.headers?.['accept-version'] ?? []].flat()[0],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The logger options with the redacting request serializer added (false stays false). */
export function withLogRedaction(
  logger: FastifyServerOptions['logger'],
): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, req: serializeRequest } };
}
