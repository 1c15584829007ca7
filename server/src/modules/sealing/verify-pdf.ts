import { X509Certificate, createHash, verify as verifySignature } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { findActiveContent, type ActiveContentKind } from './active-content.js';
import { findSignatureSlots, looksLikePdf, type SignatureSlot } from './find-signatures.js';

export type VerifyStatus = 'sealed' | 'altered' | 'unknown';

export type VerifyResult = {
  /**
   * `sealed`: signed by one of our seal certificates and untouched since.
   * `altered`: one of our seals is present but the bytes no longer match it.
   * `unknown`: not a PDF, not signed, or signed by someone else.
   */
  status: VerifyStatus;
  /** One sentence for humans explaining the status. */
  detail: string;
  /** The seal's signing time (ISO 8601), when one of our seals was found. */
  signedAt?: string;
  /** True when the examined signature's byte ranges cover the whole file. */
  coversWholeDocument: boolean;
  /** SHA-256 fingerprint of the examined signature's certificate. */
  signerFingerprint?: string;
  /** What a viewer would run or open unasked; null when the file could not be examined. */
  activeContent?: ActiveContentKind[] | null;
};

export type VerifyOptions = {
  /** SHA-256 fingerprints (hex, any case, colons allowed) of seal certificates we issued. */
  certificateFingerprints: string[];
};

type Examined = {
  slot: SignatureSlot;
  fingerprint: string;
  signedAt?: string;
  digestMatches: boolean;
  signatureValid: boolean;
  timestamped: boolean;
};

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  timestampToken: '1.2.840.113549.1.9.16.2.14',
} as const;

const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

// Signature algorithms whose hash is fixed by the OID; rsaEncryption uses the digest algorithm.
const SIGNATURE_HASHES: Record<string, string | null> = {
  '1.2.840.113549.1.1.1': null,
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};

/** verifySealedPdf, and the active content the file reaches. */
export async function verifyPdfFile(
  bytes: Uint8Array,
  options: VerifyOptions,
): Promise<VerifyResult> {
  const result = verifySealedPdf(bytes, options);
  const activeContent = looksLikePdf(bytes) ? await findActiveContent(bytes) : null;
  return { ...result, activeContent };
}

/** Says whether `bytes` is a PDF sealed by one of our certificates and unmodified since. */
export function verifySealedPdf(bytes: Uint8Array, options: VerifyOptions): VerifyResult {
  if (!looksLikePdf(bytes)) {
    return { status: 'unknown', detail: 'The file is not a PDF.', coversWholeDocument: false };
  }
  const slots = findSignatureSlots(bytes);
  if (slots.length === 0) {
    return {
      status: 'unknown',
      detail: 'The PDF carries no digital signature.',
      coversWholeDocument: false,
    };
  }
  const ours = new Set(options.certificateFingerprints.map(normalizeFingerprint));
  const examined = slots.map((slot) => examine(bytes, slot)).filter((e) => e !== undefined);
  const sealed = examined.filter((e) => ours.has(e.fingerprint));
  if (sealed.length === 0) {
    const last = examined.at(-1);
    return {
      status: 'unknown',
      detail:
        examined.length === 0
          ? 'The PDF has a signature whose data cannot be read.'
          : 'The PDF is signed, but not by a seal certificate of this service.',
      coversWholeDocument: last?.slot.coversWholeFile ?? false,
      signerFingerprint: last?.fingerprint,
    };
  }
  const intact = sealed.find((e) => e.slot.coversWholeFile && e.digestMatches && e.signatureValid);
  if (intact && intact.slot.subFilter !== 'ETSI.CAdES.detached') {
    return {
      ...summary(intact),
      status: 'unknown',
      detail: `Signed by our certificate, but as ${intact.slot.subFilter ?? 'an unknown format'}, not a PAdES seal.`,
    };
  }
  if (intact) {
    // The token is reported, not validated: the seal signature is what we vouch for.
    const stamp = intact.timestamped ? ' (carries an RFC 3161 timestamp token)' : '';
    return {
      ...summary(intact),
      status: 'sealed',
      detail: `Sealed by this service and unmodified since${stamp}.`,
    };
  }
  // The last seal is the one that should cover the final bytes; explain why it does not.
  const seal = sealed[sealed.length - 1];
  return { ...summary(seal), status: 'altered', detail: explainAltered(bytes, seal) };
}

function summary(e: Examined): Omit<VerifyResult, 'status' | 'detail'> {
  return {
    signedAt: e.signedAt,
    coversWholeDocument: e.slot.coversWholeFile,
    signerFingerprint: e.fingerprint,
  };
}

function explainAltered(bytes: Uint8Array, e: Examined): string {
  if (!e.signatureValid) return "The seal's signature data was modified and no longer verifies.";
  if (!e.digestMatches) return 'The sealed content was modified after sealing (digest mismatch).';
  const [, , start2, length2] = e.slot.byteRange;
  const extra = bytes.length - (start2 + length2);
  if (extra > 0)
    return `${extra} bytes were added after the seal (the document was changed after sealing).`;
  return 'The file is shorter than the sealed byte range: it was truncated.';
}

// Returns undefined when the signature data is not a CMS SignedData we can attribute.
function examine(bytes: Uint8Array, slot: SignatureSlot): Examined | undefined {
  try {
    const asn1 = asn1js.fromBER(slot.cms);
    if (asn1.offset === -1) return undefined;
    const contentInfo = new pkijs.ContentInfo({ schema: asn1.result });
    if (contentInfo.contentType !== OID.signedData) return undefined;
    const signedData = new pkijs.SignedData({ schema: contentInfo.content });
    const signerInfo = signedData.signerInfos[0];
    if (!signerInfo?.signedAttrs) return undefined;
    const certificate = findSignerCertificate(signedData, signerInfo);
    if (!certificate) return undefined;
    const certificateDer = new Uint8Array(certificate.toSchema(false).toBER(false));
    const fingerprint = createHash('sha256').update(certificateDer).digest('hex');

    const attributes = signerInfo.signedAttrs.attributes;
    const digestValue = attributes.find((a) => a.type === OID.messageDigest)?.values[0];
    const signingTime = attributes.find((a) => a.type === OID.signingTime)?.values[0];
    const digestName = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
    const digestMatches =
      digestName !== undefined &&
      digestValue instanceof asn1js.OctetString &&
      slot.inBounds &&
      Buffer.from(digestValue.valueBlock.valueHexView).equals(
        digestOfRanges(bytes, slot, digestName),
      );

    const signatureValid = checkSignature(signerInfo, certificateDer, digestName);
    return {
      slot,
      fingerprint,
      signedAt: timeOf(signingTime),
      digestMatches,
      signatureValid,
      timestamped: (signerInfo.unsignedAttrs?.attributes ?? []).some(
        (a) => a.type === OID.timestampToken,
      ),
    };
  } catch {
    return undefined;
  }
}

function findSignerCertificate(
  signedData: pkijs.SignedData,
  signerInfo: pkijs.SignerInfo,
): pkijs.Certificate | undefined {
  const certificates = (signedData.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate,
  );
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

function checkSignature(
  signerInfo: pkijs.SignerInfo,
  certificateDer: Uint8Array,
  digestName: string | undefined,
): boolean {
  const algorithm = signerInfo.signatureAlgorithm.algorithmId;
  if (!(algorithm in SIGNATURE_HASHES)) return false;
  const hash = SIGNATURE_HASHES[algorithm] ?? digestName;
  if (!hash || !signerInfo.signedAttrs) return false;
  // pkijs keeps the attributes as received, already re-tagged as a SET (0x31): exactly
  // the bytes the signer signed.
  const signedBytes = new Uint8Array(signerInfo.signedAttrs.encodedValue);
  const signature = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
  const publicKey = new X509Certificate(certificateDer).publicKey;
  return verifySignature(hash, signedBytes, publicKey, signature);
}

function timeOf(value: unknown): string | undefined {
  if (value instanceof asn1js.UTCTime || value instanceof asn1js.GeneralizedTime) {
    return value.toDate().toISOString();
  }
  return undefined;
}

function normalizeFingerprint(fingerprint: string): string {
  return fingerprint.replace(/[^0-9a-fA-F]/g, '').toLowerCase();
}
