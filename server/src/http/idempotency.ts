import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/handle.js';
import { hashSecret, isoIn, nowIso } from '../lib/ids.js';
import { AppError } from '../lib/errors.js';
import * as repo from './idempotency.repo.js';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    idempotency: repo.IdempotencySlot | null;
  }
}

const TTL_MS = 24 * 3600_000;

// Responses that carry a secret shown once (API keys, webhook secrets) are never stored: a
// replay of such a request answers 409 instead of handing the secret out a second time.
const SECRET_ROUTES = new Set([
  '/api/account/api-keys',
  '/api/tenants/:tenantId/webhooks',
  '/api/tenants/:tenantId/webhooks/:webhookId/rotate-secret',
]);
const HEADER = 'idempotency-key';

// Stored answers are encrypted (AES-256-GCM, a key derived from SECRET_KEY with its own HKDF
// label, the slot as associated data): an answer may hold a live signing link (send-for-signing
// with invitationEmails false answers signingUrl), which must not sit in clear for 24 hours in
// the database and its backups. Rows without the prefix were stored in clear by a version
// before this one and are replayed as they are.
const ENCRYPTED_PREFIX = 'enc1.';

function answerKey(secretKey: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', secretKey, 'signet', 'idempotency-answer/aes-256-gcm/v1', 32),
  );
}

function slotData(slot: repo.IdempotencySlot) {
  return Buffer.from(`${slot.scope}\n${slot.key}`, 'utf8');
}

function encryptAnswer(key: Buffer, slot: repo.IdempotencySlot, body: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(slotData(slot));
  const ciphertext = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return (
    ENCRYPTED_PREFIX +
    [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url')).join('.')
  );
}

// The stored body in clear; null when it cannot be decrypted (SECRET_KEY changed since).
function decryptAnswer(key: Buffer, slot: repo.IdempotencySlot, stored: string): string | null {
  if (!stored.startsWith(ENCRYPTED_PREFIX)) return stored;
  const [iv, tag, ciphertext] = stored.slice(ENCRYPTED_PREFIX.length).split('.');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(slotData(slot));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}

/** SHA-256 of the parts that make two requests "the same request". */
export function requestFingerprint(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * Idempotency-Key on POST: the first request with a key claims it; a repeat with the same
 * fingerprint within 24 h replays the stored answer, another fingerprint is 422, and a repeat
 * while the first is still running is 409.
 */
export function createIdempotency(db: Db, secretKey: string) {
  const cipherKey = answerKey(secretKey);
  /**
   * Claims the key or answers the request from the stored response; true when answered. The
   * request's fingerprint is worked out only when it carries a key (hashing a quick-create's
   * parts is wasted on the requests that carry none).
   */
  async function begin(
    request: FastifyRequest,
    reply: FastifyReply,
    fingerprintOf: () => string,
  ): Promise<boolean> {
    const key = request.headers[HEADER];
    if (typeof key !== 'string' || key.length === 0) return false;
    const fingerprint = fingerprintOf();
    if (key.length > 255) {
      throw new AppError('malformed_request', 'Idempotency-Key must be at most 255 characters.');
    }
    const p = request.principal;
    // Anonymous callers (signing links) are told apart by their path, which holds their token:
    // one signee's key never collides with, or replays, another's. Hashed, as tokens are at rest.
    const scope = p
      ? `${p.apiKeyId ?? p.userId}:${request.routeOptions.url}`
      : `anonymous:${hashSecret(request.url.split('?')[0])}`;
    const now = nowIso();
    const slot = { scope, key };
    await repo.deleteExpiredKey(db.kysely, slot, now);
    const claimed = await repo.claimKey(db.kysely, {
      ...slot,
      request_hash: fingerprint,
      status_code: null,
      response_body: null,
      created_at: now,
      expires_at: isoIn(TTL_MS),
    });
    if (claimed) {
      request.idempotency = slot;
      return false;
    }
    const existing = await repo.findKey(db.kysely, slot);
    if (!existing) return begin(request, reply, () => fingerprint);
    if (existing.request_hash !== fingerprint) {
      throw new AppError(
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request.',
        {
          errors: [
            {
              path: 'headers.idempotency-key',
              message: 'already used with a different request; use a new key for a new request',
            },
          ],
        },
      );
    }
    if (existing.status_code === null) {
      throw new AppError('conflict', 'A request with this Idempotency-Key is still in progress.');
    }
    if (SECRET_ROUTES.has(request.routeOptions.url ?? '') && existing.status_code < 300) {
      throw new AppError(
        'conflict',
        'This request already succeeded; its secret was shown once and is not replayed.',
      );
    }
    const body =
      existing.response_body === null
        ? null
        : decryptAnswer(cipherKey, slot, existing.response_body);
    if (existing.response_body !== null && body === null) {
      throw new AppError(
        'conflict',
        'This request already succeeded; its answer cannot be replayed since the service key changed.',
      );
    }
    reply.header('idempotent-replayed', 'true');
    reply.code(existing.status_code);
    if (body === null || body === '') await reply.send();
    // Stored answers are ours: JSON, or problem+json for the 4xx errors that are kept.
    else
      await reply
        .type(
          existing.status_code >= 400
            ? 'application/problem+json'
            : 'application/json; charset=utf-8',
        )
        .send(body);
    return true;
  }

  /** Stores the answer for the claimed key; a server error releases the claim for a retry. */
  async function finish(request: FastifyRequest, statusCode: number, payload: unknown) {
    const claim = request.idempotency;
    if (!claim) return;
    request.idempotency = null;
    // A server error or a rate limit says nothing about the request itself: release the
    // claim so the retry runs (a replayed 429 would also lose its Retry-After).
    if (statusCode >= 500 || statusCode === 429) {
      await repo.deleteKey(db.kysely, claim);
      return;
    }
    await repo.storeAnswer(db.kysely, claim, {
      status_code: statusCode,
      response_body:
        typeof payload === 'string' && !SECRET_ROUTES.has(request.routeOptions.url ?? '')
          ? encryptAnswer(cipherKey, claim, payload)
          : null,
    });
  }

  return { begin, finish };
}

/** The idempotency helpers, passed to routes that parse their own bodies (multipart). */
export type Idempotency = ReturnType<typeof createIdempotency>;
