import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/**
 * A new row id: a UUID v7 (RFC 9562), a millisecond timestamp followed by 74 random bits. Ids
 * made one after another sort together, so the rows a batch inserts or updates share B-tree
 * pages in every index keyed by them instead of each dirtying its own page: SQLite's commits
 * write (and fsync) several times fewer pages. Ids are identifiers, never secrets.
 */
export function newId(): string {
  return uuidv7();
}

/** Current time as the ISO 8601 UTC string with milliseconds the API and database use. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** A time `ms` milliseconds from now, as ISO 8601. */
export function isoIn(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

/** A random, URL-safe secret with a readable prefix (keys, tokens, webhook secrets). */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/**
 * SHA-256 hex of a high-entropy secret: what we store instead of the secret. A memory-hard
 * hash is not needed for 256-bit random values, and a fast one keeps per-request lookups cheap.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Runs an async factory once and shares its promise; a failure is retried on the next call. */
export function memoize<T>(factory: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= factory().catch((err) => {
      pending = null;
      throw err;
    });
    return pending;
  };
}
