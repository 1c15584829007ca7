import { X509Certificate, constants, verify, type KeyObject } from 'node:crypto';

// Signature algorithms by OID: the digest they imply (null: the one named beside them) and
// the kind of signature. Enough for what TSAs, OCSP responders and CAs sign with.
const SIGNATURE_ALGORITHMS: Record<
  string,
  { digest: string | null; kind: 'pkcs1' | 'pss' | 'ecdsa' }
> = {
  '1.2.840.113549.1.1.1': { digest: null, kind: 'pkcs1' },
  '1.2.840.113549.1.1.5': { digest: 'sha1', kind: 'pkcs1' },
  '1.2.840.113549.1.1.11': { digest: 'sha256', kind: 'pkcs1' },
  '1.2.840.113549.1.1.12': { digest: 'sha384', kind: 'pkcs1' },
  '1.2.840.113549.1.1.13': { digest: 'sha512', kind: 'pkcs1' },
  '1.2.840.113549.1.1.10': { digest: null, kind: 'pss' },
  '1.2.840.10045.2.1': { digest: null, kind: 'ecdsa' },
  '1.2.840.10045.4.3.2': { digest: 'sha256', kind: 'ecdsa' },
  '1.2.840.10045.4.3.3': { digest: 'sha384', kind: 'ecdsa' },
  '1.2.840.10045.4.3.4': { digest: 'sha512', kind: 'ecdsa' },
};

/** Node's digest names by OID. */
export const NODE_DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/**
 * Whether `signature` over `data` verifies with the certificate's key, for the signature
 * algorithm OID given (and, for algorithms that do not imply one, the digest OID beside it).
 * False for unknown algorithms and malformed keys rather than a throw: to the caller any of
 * these means "not signed by that certificate".
 */
export function signatureVerifies(options: {
  data: Uint8Array;
  signature: Uint8Array;
  signatureAlgorithm: string;
  digestAlgorithm?: string;
  signer: Uint8Array | KeyObject;
}): boolean {
  const algorithm = SIGNATURE_ALGORITHMS[options.signatureAlgorithm];
  const digest =
    algorithm?.digest ?? (options.digestAlgorithm ? NODE_DIGESTS[options.digestAlgorithm] : null);
  if (!algorithm || !digest) return false;
  try {
    const key =
      options.signer instanceof Uint8Array
        ? new X509Certificate(options.signer).publicKey
        : options.signer;
    const keyOptions =
      algorithm.kind === 'pss'
        ? {
            key,
            padding: constants.RSA_PKCS1_PSS_PADDING,
            saltLength: constants.RSA_PSS_SALTLEN_AUTO,
          }
        : key;
    return verify(digest, options.data, keyOptions, options.signature);
  } catch {
    return false;
  }
}
