import { X509Certificate, constants, verify, type KeyObject } from 'node:crypto';
import { DIGESTS, SIGNATURES } from '../../../../sdk/src/cms-signature.js';

const RSASSA_PSS = '1.2.840.113549.1.1.10';
// Signature algorithms by OID and the digest they imply (null: the one named beside them):
// the SDK's (RSA PKCS #1 v1.5 and ECDSA), RSASSA-PSS, and ECDSA named by its key type
// (id-ecPublicKey). Enough for what TSAs, OCSP responders and CAs sign with.
const SIGNATURE_DIGESTS: Record<string, string | null> = {
  ...SIGNATURES,
  [RSASSA_PSS]: null,
  '1.2.840.10045.2.1': null,
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
  const oid = options.signatureAlgorithm;
  if (!(oid in SIGNATURE_DIGESTS)) return false;
  const digest =
    SIGNATURE_DIGESTS[oid] ?? (options.digestAlgorithm ? DIGESTS[options.digestAlgorithm] : null);
  if (!digest) return false;
  try {
    const key =
      options.signer instanceof Uint8Array
        ? new X509Certificate(options.signer).publicKey
        : options.signer;
    const keyOptions =
      oid === RSASSA_PSS
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
