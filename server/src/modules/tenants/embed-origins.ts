import { z } from 'zod';
import { LOOPBACK_HOSTS } from '../documents/integrator-fields.js';

/**
 * A tenant's `embedOrigins` (decisions §13): the origins whose pages may frame the signing pages
 * of the tenant's documents and receive their messages. One set of rules for the setting, the
 * Content-Security-Policy built from it and the page that posts to it.
 */

/** The most origins a tenant may list. */
export const MAX_EMBED_ORIGINS = 10;

// A scheme, then a host and maybe a port, and nothing else: no path (not even "/"), query,
// fragment, user name, wildcard or white space. The URL parser checks the host itself.
const ORIGIN_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@*\\\s]+$/i;

/**
 * Why `value` cannot be an embed origin, or null when it can: `https://host[:port]` exactly;
 * `http://` only to localhost, 127.0.0.1 or [::1] (a developer's own machine, as for redirectUrl).
 */
export function embedOriginProblem(value: string): string | null {
  if (!ORIGIN_SHAPE.test(value)) {
    return value.includes('*')
      ? 'must be an exact origin: wildcards are not allowed'
      : 'must be an origin, https://host[:port], with no path, query or trailing slash';
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an origin, https://host[:port]';
  }
  if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) {
      return 'must be an https origin (http only for localhost, 127.0.0.1 or [::1])';
    }
  } else if (url.protocol !== 'https:') {
    return 'must be an https origin';
  }
  return null;
}

/**
 * An origin as browsers write it (and compare it in `frame-ancestors` and `postMessage`): scheme
 * and host in lower case, an IDN host in punycode, the scheme's default port left out.
 */
export function normalizeEmbedOrigin(value: string): string {
  return new URL(value).origin;
}

/** The setting as PATCH takes it and GET answers it. */
export const embedOriginsSchema = z
  .array(
    z
      .string()
      .max(300)
      .superRefine((value, ctx) => {
        const problem = embedOriginProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
      })
      .meta({ format: 'uri', example: 'https://app.example.com' }),
  )
  .max(MAX_EMBED_ORIGINS)
  .describe(
    "Origins (https://host[:port]; http only for localhost, 127.0.0.1 and [::1]) whose pages may frame the signing pages of this tenant's documents and receive their postMessage events; at most 10, stored normalised (lower case, no default port) without repeats. [] (the default): signing pages refuse to be framed.",
  );

/** The setting as its column stores it: JSON text of the normalised origins, first kept. */
export function encodeEmbedOrigins(origins: readonly string[]): string {
  return JSON.stringify([...new Set(origins.map(normalizeEmbedOrigin))]);
}

/** The setting from its column. */
export function decodeEmbedOrigins(stored: string): string[] {
  return JSON.parse(stored) as string[];
}
