import { importJWK } from 'jose';
import type { Db } from '../../db/handle.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import { nowIso } from '../../lib/ids.js';
import { listIdentityKeys, replaceIdentityKeys, type StoredJwk } from './identity-keys.repo.js';
import { requireMembership } from './tenants.service.js';
import { recordActivity, type ActivityBy } from './activity.js';

/** At most this many identity keys per tenant (room to rotate a few at a time). */
export const MAX_IDENTITY_KEYS = 10;

// Members a public key never has: RSA's private exponent and primes, EC's private scalar, a
// symmetric key's bytes. Any of them means a private key was about to be handed to us.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
// What is kept of a key: what verifying needs and what names it; anything else is dropped.
const KEPT = { RSA: ['n', 'e'], EC: ['crv', 'x', 'y'] } as const;
const ALG = { RSA: 'RS256', EC: 'ES256' } as const;
const MIN_RSA_BITS = 2048;

// The bit length of a base64url big-endian unsigned integer (an RSA modulus).
function bitLength(base64url: string): number {
  const bytes = Buffer.from(base64url, 'base64url');
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  if (i === bytes.length) return 0;
  return (bytes.length - i - 1) * 8 + (32 - Math.clz32(bytes[i]!));
}

// One key's problems (none: its stored form).
async function checkKey(
  jwk: Record<string, unknown>,
  path: string,
): Promise<{ key?: StoredJwk; problems: FieldError[] }> {
  const problem = (message: string, at = path) => ({ problems: [{ path: at, message }] });
  const secret = PRIVATE_MEMBERS.filter((m) => m in jwk);
  if (secret.length > 0) {
    return problem(
      `is a private key (it has ${secret.join(', ')}): register public keys only, and treat this one as exposed`,
    );
  }
  const { kty, kid, alg, use } = jwk;
  if (kty !== 'RSA' && kty !== 'EC') return problem('must be RSA or EC (P-256)', `${path}.kty`);
  if (typeof kid !== 'string' || kid.trim() === '' || kid.length > 200) {
    return problem('must be a string of 1 to 200 characters', `${path}.kid`);
  }
  if (alg !== undefined && alg !== ALG[kty]) return problem(`must be ${ALG[kty]}`, `${path}.alg`);
  if (use !== undefined && use !== 'sig') return problem('must be sig', `${path}.use`);
  if (kty === 'EC' && jwk.crv !== 'P-256') return problem('must be P-256', `${path}.crv`);
  for (const member of KEPT[kty]) {
    if (typeof jwk[member] !== 'string') return problem('is required', `${path}.${member}`);
  }
  if (kty === 'RSA' && bitLength(jwk.n as string) < MIN_RSA_BITS) {
    return problem(`must be at least ${MIN_RSA_BITS} bits`, `${path}.n`);
  }
  const key: StoredJwk = { kty, kid };
  for (const member of KEPT[kty]) Object.assign(key, { [member]: jwk[member] });
  if (alg !== undefined) key.alg = ALG[kty];
  if (use !== undefined) key.use = 'sig';
  try {
    // The same import a token's check makes: a point off the curve or a broken modulus fails.
    await importJWK({ ...key, alg: ALG[kty] }, ALG[kty]);
  } catch {
    return problem(`is not a valid ${kty === 'RSA' ? 'RSA' : 'P-256'} public key`);
  }
  return { key, problems: [] };
}

/**
 * Checks a list of identity keys: public RSA (at least 2048 bits) or EC P-256 keys, each with
 * its own `kid`, `alg` (RS256, ES256) and `use` (sig) optional; at most MAX_IDENTITY_KEYS.
 * Returns their stored forms, or the problems at `body.keys.N…`.
 */
export async function checkIdentityKeys(
  keys: Array<Record<string, unknown>>,
): Promise<{ keys: StoredJwk[]; errors: FieldError[] }> {
  const checked = await Promise.all(keys.map((jwk, i) => checkKey(jwk, `body.keys.${i}`)));
  const errors = checked.flatMap((c) => c.problems);
  const seen = new Map<string, number>();
  checked.forEach((c, i) => {
    if (!c.key) return;
    const first = seen.get(c.key.kid);
    if (first === undefined) seen.set(c.key.kid, i);
    else errors.push({ path: `body.keys.${i}.kid`, message: `duplicates body.keys.${first}.kid` });
  });
  return { keys: checked.flatMap((c) => (c.key ? [c.key] : [])), errors };
}

/** A tenant's identity keys; any member may read them (they are public). */
export async function getIdentityKeys(db: Db, input: { tenantId: string; userId: string }) {
  await requireMembership(db.kysely, { ...input, action: 'tenant.read' });
  return listIdentityKeys(db.kysely, input.tenantId);
}

/** Replaces a tenant's identity keys (owners and admins): the whole list, checked first. */
export async function putIdentityKeys(
  db: Db,
  input: {
    tenantId: string;
    userId: string;
    by: ActivityBy;
    keys: Array<Record<string, unknown>>;
  },
) {
  const checked = await checkIdentityKeys(input.keys);
  return db.kysely.transaction().execute(async (trx) => {
    // Who may, before what is wrong with the keys: a stranger learns nothing of either.
    await requireMembership(trx, { ...input, action: 'settings.manage' });
    if (checked.errors.length > 0) {
      throw validationError(checked.errors, 'Some identity keys cannot be registered.');
    }
    const before = await listIdentityKeys(trx, input.tenantId);
    await replaceIdentityKeys(trx, { tenantId: input.tenantId, keys: checked.keys, at: nowIso() });
    const changes = keyChanges(before, checked.keys);
    if (changes) {
      await recordActivity(trx, {
        tenantId: input.tenantId,
        action: 'identity_keys.updated',
        by: input.by,
        details: changes,
      });
    }
    return checked.keys;
  });
}

// The keys added, removed and replaced (same kid, other key), by kid only: the log names keys,
// it does not copy them. Null when the list is the same.
function keyChanges(before: StoredJwk[], after: StoredJwk[]) {
  const old = new Map(before.map((k) => [k.kid, JSON.stringify(k)]));
  const now = new Map(after.map((k) => [k.kid, JSON.stringify(k)]));
  const added = after.filter((k) => !old.has(k.kid)).map((k) => k.kid);
  const removed = before.filter((k) => !now.has(k.kid)).map((k) => k.kid);
  const replaced = after.filter((k) => old.has(k.kid) && old.get(k.kid) !== now.get(k.kid));
  if (added.length + removed.length + replaced.length === 0) return null;
  return { added, removed, replaced: replaced.map((k) => k.kid), keys: after.map((k) => k.kid) };
}
