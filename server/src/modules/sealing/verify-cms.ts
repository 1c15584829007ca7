import { X509Certificate, createHash, verify as verifySignature } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { DIGESTS, SIGNATURES } from '../../../../sdk/src/cms-signature.js';
import type { SignatureSlot } from './find-signatures.js';

/** What a signature's CMS says of the bytes it signs, before deciding whose it is. */
export type Examined = {
  slot: SignatureSlot;
  kind: 'signature' | 'document_timestamp';
  /** SHA-256 of the signer's certificate, lowercase hex. */
  fingerprint: string;
  /** The signer's distinguished name, e.g. `CN=Signet Sandbox Seal, O=Signet`. */
  subject: string;
  certificate: pkijs.Certificate;
  /** The certificates the CMS carries, the signer's among them. */
  certificates: pkijs.Certificate[];
  /** The signed digest (for a document time stamp, its message imprint) is that of these bytes. */
  digestMatches: boolean;
  /** The signer's signature over its signed attributes verifies with its certificate. */
  signatureValid: boolean;
  /** A signature's signature-time-stamp token; a document time stamp's own token. */
  timestamp?: TokenCheck;
};

/** An RFC 3161 token, checked: its time, and whether it stamps what it should and verifies. */
export type TokenCheck = {
  time: string | undefined;
  valid: boolean;
  signer: pkijs.Certificate | undefined;
  certificates: pkijs.Certificate[];
};

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  messageDigest: '1.2.840.113549.1.9.4',
  timestampToken: '1.2.840.113549.1.9.16.2.14',
} as const;

/**
 * Parses a slot's CMS and checks it against the file's bytes. Returns undefined when the data
 * is not a CMS SignedData whose signer can be told.
 */
export function examineSlot(bytes: Uint8Array, slot: SignatureSlot): Examined | undefined {
  try {
    const parsed = parseSignedData(slot.cms);
    if (!parsed) return undefined;
    const { signerInfo, certificate, certificates } = parsed;
    const certificateDer = derOf(certificate);
    const base = {
      slot,
      fingerprint: createHash('sha256').update(certificateDer).digest('hex'),
      subject: subjectOf(certificateDer),
      certificate,
      certificates,
    };
    const rangesDigest = (name: string) =>
      slot.inBounds ? digestOfRanges(bytes, slot, name) : null;
    if (slot.subFilter === 'ETSI.RFC3161') {
      const token = checkToken(slot.cms, rangesDigest);
      const stamped = token?.imprintMatches ?? false;
      return {
        ...base,
        kind: 'document_timestamp',
        digestMatches: stamped,
        signatureValid: token?.check.valid ?? false,
        timestamp: token?.check,
      };
    }
    const digestName = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
    const signed = digestName ? rangesDigest(digestName) : null;
    const signatureValue = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
    const tokenAttribute = (signerInfo.unsignedAttrs?.attributes ?? []).find(
      (a) => a.type === OID.timestampToken,
    )?.values[0];
    const token = tokenAttribute
      ? checkToken(new Uint8Array(tokenAttribute.toBER(false)), (name) =>
          createHash(name).update(signatureValue).digest(),
        )
      : undefined;
    return {
      ...base,
      kind: 'signature',
      digestMatches: signed !== null && messageDigestIs(signerInfo, signed),
      signatureValid: signerInfoVerifies(signerInfo, certificateDer, digestName),
      timestamp: token && {
        ...token.check,
        valid: token.check.valid && token.imprintMatches,
      },
    };
  } catch {
    return undefined;
  }
}

type Parsed = {
  signedData: pkijs.SignedData;
  signerInfo: pkijs.SignerInfo;
  certificate: pkijs.Certificate;
  certificates: pkijs.Certificate[];
};

function parseSignedData(der: Uint8Array): Parsed | undefined {
  const asn1 = asn1js.fromBER(der);
  if (asn1.offset === -1) return undefined;
  const contentInfo = new pkijs.ContentInfo({ schema: asn1.result });
  if (contentInfo.contentType !== OID.signedData) return undefined;
  const signedData = new pkijs.SignedData({ schema: contentInfo.content });
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo?.signedAttrs) return undefined;
  const certificates = (signedData.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate,
  );
  const certificate = findSignerCertificate(certificates, signerInfo);
  if (!certificate) return undefined;
  return { signedData, signerInfo, certificate, certificates };
}

// A time-stamp token: its TSTInfo's message imprint against `digestOf` (what it should stamp),
// and its own signature.
function checkToken(
  der: Uint8Array,
  digestOf: (name: string) => Buffer | null,
): { check: TokenCheck; imprintMatches: boolean } | undefined {
  const parsed = parseSignedData(der);
  const content = parsed?.signedData.encapContentInfo;
  if (!parsed || content?.eContentType !== OID.tstInfo || !content.eContent) return undefined;
  const tstDer = new Uint8Array(content.eContent.getValue());
  const tstInfo = pkijs.TSTInfo.fromBER(tstDer);
  const imprintName = DIGESTS[tstInfo.messageImprint.hashAlgorithm.algorithmId];
  const expected = imprintName ? digestOf(imprintName) : null;
  const imprintMatches =
    expected !== null &&
    expected.equals(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView);
  const { signerInfo, certificate, certificates } = parsed;
  const digestName = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
  const valid =
    digestName !== undefined &&
    messageDigestIs(signerInfo, createHash(digestName).update(tstDer).digest()) &&
    signerInfoVerifies(signerInfo, derOf(certificate), digestName);
  return {
    check: { time: tstInfo.genTime.toISOString(), valid, signer: certificate, certificates },
    imprintMatches,
  };
}

function messageDigestIs(signerInfo: pkijs.SignerInfo, digest: Buffer): boolean {
  const value = signerInfo.signedAttrs?.attributes.find((a) => a.type === OID.messageDigest)
    ?.values[0];
  return value instanceof asn1js.OctetString && digest.equals(value.valueBlock.valueHexView);
}

function findSignerCertificate(
  certificates: pkijs.Certificate[],
  signerInfo: pkijs.SignerInfo,
): pkijs.Certificate | undefined {
  const sid: unknown = signerInfo.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certificates.find(
      (c) => c.serialNumber.isEqual(sid.serialNumber) && c.issuer.isEqual(sid.issuer),
    );
  }
  // SubjectKeyIdentifier form: [0] IMPLICIT OCTET STRING holding the key id.
  if (sid instanceof asn1js.Primitive) {
    const keyId = Buffer.from(sid.valueBlock.valueHexView);
    return certificates.find((c) => {
      const extension = c.extensions?.find((x) => x.extnID === '2.5.29.14');
      const parsed = extension?.parsedValue;
      return parsed instanceof asn1js.OctetString && keyId.equals(parsed.valueBlock.valueHexView);
    });
  }
  return undefined;
}

// Streams the two ranges into the hash: no copy of a possibly 40 MiB file.
function digestOfRanges(bytes: Uint8Array, slot: SignatureSlot, digestName: string): Buffer {
  const [start1, length1, start2, length2] = slot.byteRange;
  return createHash(digestName)
    .update(bytes.subarray(start1, start1 + length1))
    .update(bytes.subarray(start2, start2 + length2))
    .digest();
}

function signerInfoVerifies(
  signerInfo: pkijs.SignerInfo,
  certificateDer: Uint8Array,
  digestName: string | undefined,
): boolean {
  if (!signerInfo.signedAttrs) return false;
  // pkijs keeps the attributes as received, already re-tagged as a SET (0x31): exactly the
  // bytes the signer signed.
  return verifiesWith(
    signerInfo.signatureAlgorithm.algorithmId,
    digestName,
    new Uint8Array(signerInfo.signedAttrs.encodedValue),
    new Uint8Array(signerInfo.signature.valueBlock.valueHexView),
    certificateDer,
  );
}

/**
 * True when `signature` over `data` verifies with the certificate's key under `algorithm`, one
 * of the SDK's SIGNATURES (the same algorithms its evidence verifier accepts).
 */
export function verifiesWith(
  algorithm: string,
  digestName: string | undefined,
  data: Uint8Array,
  signature: Uint8Array,
  certificateDer: Uint8Array,
): boolean {
  if (!(algorithm in SIGNATURES)) return false;
  const hash = SIGNATURES[algorithm] ?? digestName;
  if (!hash) return false;
  try {
    const publicKey = new X509Certificate(certificateDer).publicKey;
    return verifySignature(hash, data, publicKey, signature);
  } catch {
    return false;
  }
}

/** A certificate's DER encoding. */
export function derOf(certificate: pkijs.Certificate): Uint8Array {
  return new Uint8Array(certificate.toSchema(false).toBER(false));
}

function subjectOf(certificateDer: Uint8Array): string {
  try {
    return new X509Certificate(certificateDer).subject.split('\n').join(', ');
  } catch {
    return '';
  }
}
