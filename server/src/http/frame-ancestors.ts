import type { FastifyReply } from 'fastify';

/**
 * Framing of a page by other sites (decisions §13). Pages are sent with `frame-ancestors 'self'`
 * and `X-Frame-Options: SAMEORIGIN` (security-headers.ts); a signing page of a tenant with
 * `embedOrigins` is framed by those origins too.
 */

/**
 * Lets `origins` (normalised origins, as the tenant setting stores them) frame this page: they
 * join 'self' in the CSP's frame-ancestors, and X-Frame-Options goes, since it can name no list
 * and browsers that know CSP ignore it anyway. With no origins the headers are left as they are.
 */
export function allowFraming(reply: FastifyReply, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp !== 'string') return;
  const ancestors = `frame-ancestors 'self' ${origins.join(' ')}`;
  reply.header(
    'content-security-policy',
    /frame-ancestors [^;]*/.test(csp)
      ? csp.replace(/frame-ancestors [^;]*/, ancestors)
      : `${csp};${ancestors}`,
  );
  reply.removeHeader('x-frame-options');
}

const attributeEscapes: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
};

/**
 * The `<meta>` element that tells the signing page where it may post its messages: the same
 * origins the CSP lets frame it, space-separated. Empty (no element) when there are none; the
 * page then never posts.
 */
export function embedOriginsMeta(origins: readonly string[]): string {
  if (origins.length === 0) return '';
  const content = origins.join(' ').replace(/[&"'<>]/g, (c) => attributeEscapes[c]!);
  return `<meta name="signet-embed-origins" content="${content}" />`;
}
