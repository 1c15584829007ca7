import type { FastifyRequest } from 'fastify';

/** Where a request came from (IP and user agent), as the audit trail records it. */
export function originOf(request: FastifyRequest): { ip: string | null; userAgent: string | null } {
  const ua = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua : null };
}
