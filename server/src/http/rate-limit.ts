import type { FastifyReply } from 'fastify';
import { AppError } from '../lib/errors.js';

type Bucket = { tokens: number; updatedAt: number };

/**
 * A token bucket per key (an API key, a signing link, a client address): `perSecond`
 * sustained, `burst` at once; `subject` names the key in the 429's detail. In process memory:
 * with several processes each enforces its own share, which is documented in
 * docs/operations.md.
 */
export function createRateLimiter(options: { perSecond: number; burst: number; subject?: string }) {
  const buckets = new Map<string, Bucket>();
  let lastSweep = Date.now();

  return function consume(key: string, reply: FastifyReply): void {
    const now = Date.now();
    if (now - lastSweep > 60_000) {
      // Full buckets carry no information; dropping them bounds the map by active keys.
      for (const [k, b] of buckets) {
        if (b.tokens + ((now - b.updatedAt) / 1000) * options.perSecond >= options.burst) {
          buckets.delete(k);
        }
      }
      lastSweep = now;
    }
    const bucket = buckets.get(key) ?? { tokens: options.burst, updatedAt: now };
    bucket.tokens = Math.min(
      options.burst,
      bucket.tokens + ((now - bucket.updatedAt) / 1000) * options.perSecond,
    );
    bucket.updatedAt = now;
    buckets.set(key, bucket);
    const resetSeconds = Math.ceil((options.burst - bucket.tokens) / options.perSecond);
    reply.header('ratelimit-limit', String(options.burst));
    reply.header('ratelimit-reset', String(resetSeconds));
    if (bucket.tokens < 1) {
      reply.header('ratelimit-remaining', '0');
      const retryAfter = String(Math.max(1, Math.ceil((1 - bucket.tokens) / options.perSecond)));
      throw new AppError(
        'rate_limited',
        `Too many requests for ${options.subject ?? 'this API key'}.`,
        {
          headers: { 'retry-after': retryAfter },
        },
      );
    }
    bucket.tokens -= 1;
    reply.header('ratelimit-remaining', String(Math.floor(bucket.tokens)));
  };
}

/** A limiter's consume function. */
export type RateLimit = ReturnType<typeof createRateLimiter>;
