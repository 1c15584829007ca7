import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import { AppError, type ErrorCode } from '../../lib/errors.js';

/** The only algorithms an identity token may use: never `none`, never a shared secret. */
export const IDENTITY_ALGORITHMS = ['RS256', 'ES256'];

/** The furthest an identity token's `exp` may be (decisions §13). */
export const IDENTITY_MAX_LIFETIME_SECONDS = 600;

/** Clocks may differ this much between the integrator's servers and ours. */
export const IDENTITY_CLOCK_TOLERANCE_SECONDS = 30;

/** What a verified identity token vouches for, as the audit trail and certificate record it. */
export type VouchedIdentity = {
  /** `iss`: who vouches (the integrator's application); null when the token names none. */
  issuer: string | null;
  /** `sub`: the integrator's own id of the person; null when the token names none. */
  subject: string | null;
  /** `kid`: the tenant's key that signed it. */
  keyId: string;
  jti: string;
  /** `exp` as ISO 8601: until when the `jti` is kept. */
  expiresAt: string;
};

// Each tenant's keys as a local JWK set, made again only when the keys change: the set keeps
// the keys it has imported, so a token costs one signature check, not a key import.
const keySets = new Map<string, { json: string; set: ReturnType<typeof createLocalJWKSet> }>();
const MAX_KEY_SETS = 1000;

function keySetOf(tenantId: string, keys: JWK[]) {
  const json = JSON.stringify(keys);
  const cached = keySets.get(tenantId);
  if (cached?.json === json) return cached.set;
  const set = createLocalJWKSet({ keys } as JSONWebKeySet);
  if (keySets.size >= MAX_KEY_SETS) keySets.delete(keySets.keys().next().value!);
  keySets.set(tenantId, { json, set });
  return set;
}

const refuse = (code: ErrorCode, detail: string) => new AppError(code, detail);

/**
 * Verifies an identity token for one signee's link with `jose`, against the tenant's registered
 * public keys only (nothing is ever fetched): RS256 or ES256 by the key its `kid` names, `aud`
 * the signee's id, `email` the signee's (any case), `exp` not past and at most 10 minutes away,
 * `iat` not in the future, a `jti`. Whether the `jti` was used before is the caller's (it needs
 * the database). Each refusal is a 401 with its own code.
 */
export async function verifyIdentityToken(input: {
  token: string;
  tenantId: string;
  keys: JWK[];
  signee: { id: string; email: string };
  now?: Date;
}): Promise<VouchedIdentity> {
  const now = input.now ?? new Date();
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(input.token).kid;
  } catch {
    throw refuse('identity_invalid', 'The identity token is not a JWS compact token.');
  }
  if (typeof kid !== 'string' || kid === '') {
    throw refuse('identity_invalid', 'The identity token names no key: its header needs a kid.');
  }
  if (!input.keys.some((k) => k.kid === kid)) {
    throw refuse('identity_signature', `No identity key with kid "${kid}" is registered.`);
  }
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(input.token, keySetOf(input.tenantId, input.keys), {
      algorithms: IDENTITY_ALGORITHMS,
      audience: input.signee.id,
      clockTolerance: IDENTITY_CLOCK_TOLERANCE_SECONDS,
      maxTokenAge: IDENTITY_MAX_LIFETIME_SECONDS + IDENTITY_CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp', 'iat', 'jti', 'email'],
      currentDate: now,
    }));
  } catch (err) {
    throw refusalOf(err);
  }
  const seconds = now.getTime() / 1000;
  const exp = payload.exp as number;
  if (exp - seconds > IDENTITY_MAX_LIFETIME_SECONDS + IDENTITY_CLOCK_TOLERANCE_SECONDS) {
    throw refuse(
      'identity_lifetime',
      `The identity token's exp is more than ${IDENTITY_MAX_LIFETIME_SECONDS / 60} minutes away.`,
    );
  }
  const { email, jti, iss, sub } = payload;
  if (typeof email !== 'string' || email.toLowerCase() !== input.signee.email.toLowerCase()) {
    throw refuse('identity_email', "The identity token's email is not this signee's.");
  }
  if (typeof jti !== 'string' || jti === '' || jti.length > 200) {
    throw refuse('identity_invalid', "The identity token's jti must be a string of 1 to 200.");
  }
  return {
    issuer: typeof iss === 'string' ? iss : null,
    subject: typeof sub === 'string' ? sub : null,
    keyId: kid,
    jti,
    expiresAt: new Date(exp * 1000).toISOString(),
  };
}

// jose's errors as our codes: each failure says which check it failed.
function refusalOf(err: unknown): AppError {
  if (err instanceof errors.JWTExpired) {
    return err.claim === 'exp'
      ? refuse('identity_expired', 'The identity token has expired.')
      : refuse('identity_expired', `The identity token was issued too long ago (${err.message}).`);
  }
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') {
      return refuse('identity_audience', "The identity token's aud is not this signee's id.");
    }
    return refuse('identity_invalid', `The identity token's claims are not valid: ${err.message}.`);
  }
  if (
    err instanceof errors.JOSEAlgNotAllowed ||
    err instanceof errors.JWSSignatureVerificationFailed ||
    err instanceof errors.JWKSNoMatchingKey ||
    err instanceof errors.JOSENotSupported
  ) {
    return refuse(
      'identity_signature',
      `The identity token is not signed with ${IDENTITY_ALGORITHMS.join(' or ')} by the registered key it names.`,
    );
  }
  return refuse('identity_invalid', 'The identity token cannot be read.');
}
