import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { newSecret } from '../../lib/ids.js';

/** Prefix of every webhook signing secret, so a leaked one is recognisable. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

const VERSION = 'v1';
const keys = new Map<string, Buffer>();

// The service signs every delivery with the plain secret, so it is stored encrypted rather than
// hashed. The key is derived from SECRET_KEY with HKDF (its own `info`, so it never equals a key
// used for sessions or download URLs) and cached: derivation per attempt would be wasted work.
function encryptionKey(secretKey: string): Buffer {
  let key = keys.get(secretKey);
  if (!key) {
    key = Buffer.from(
      hkdfSync('sha256', secretKey, 'signet', 'webhook-secret-encryption/aes-256-gcm/v1', 32),
    );
    keys.set(secretKey, key);
  }
  return key;
}

/** A new random signing secret (`whsec_` + 256 bits, base64url). */
export function generateWebhookSecret(): string {
  return newSecret(WEBHOOK_SECRET_PREFIX, 32);
}

/**
 * Encrypts a signing secret with AES-256-GCM. The webhook id is the associated data: a
 * ciphertext copied onto another webhook's row fails to decrypt instead of signing for it.
 */
export function encryptWebhookSecret(secretKey: string, webhookId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(secretKey), iv);
  cipher.setAAD(Buffer.from(webhookId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
  return [VERSION, ...parts].join('.');
}

// Decrypted secrets by ciphertext: every attempt needs its webhook's secret, and a rotation
// changes the ciphertext, so an entry can never be stale. Bounded; the oldest entry goes first.
const decrypted = new Map<string, string>();
const DECRYPTED_MAX = 1000;

/** Decrypts what encryptWebhookSecret stored; throws if it was tampered with or the key changed. */
export function decryptWebhookSecret(secretKey: string, webhookId: string, stored: string): string {
  const cacheKey = `${secretKey}\n${webhookId}\n${stored}`;
  const hit = decrypted.get(cacheKey);
  if (hit !== undefined) return hit;
  const secret = decrypt(secretKey, webhookId, stored);
  if (decrypted.size >= DECRYPTED_MAX) decrypted.delete(decrypted.keys().next().value!);
  decrypted.set(cacheKey, secret);
  return secret;
}

function decrypt(secretKey: string, webhookId: string, stored: string): string {
  const [version, iv, tag, ciphertext] = stored.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) {
    throw new Error('unrecognised webhook secret encoding');
  }
  const decipher = createDecipheriv(
    'aes-256-gcm',
    encryptionKey(secretKey),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAAD(Buffer.from(webhookId, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(ciphertext, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}
