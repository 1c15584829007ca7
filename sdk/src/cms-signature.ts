// Checks a PDF signature's CMS (PAdES, ETSI.CAdES.detached; adbe.pkcs7.detached alike) with
// node:crypto and a small DER reader: the signed attributes' messageDigest against the digest of
// the signed byte ranges, and the signature over the signed attributes with the signer's
// certificate as the CMS carries it. Whether that certificate is one to trust is the caller's
// question (compare its fingerprint); a time-stamp token is reported, not validated.
import { X509Certificate, createHash, verify } from 'node:crypto';

/** What a signature's CMS says and whether it holds. */
export type CmsCheck = {
  /** messageDigest equals the digest of the signed byte ranges. */
  digestMatches: boolean;
  /** The signature over the signed attributes verifies with the signer's certificate. */
  signatureValid: boolean;
  /** Why it could not be checked, when it could not. */
  problem?: string;
  signer?: {
    subject: string;
    issuer: string;
    /** Lowercase hex SHA-256 of the certificate (DER). */
    fingerprintSha256: string;
    validFrom: string;
    validTo: string;
  };
  /** The signingTime attribute (ISO 8601), if any. */
  signingTime?: string;
  /** An RFC 3161 time-stamp token is attached (not validated here). */
  timestamped: boolean;
};

type Node = { tag: number; start: number; contentStart: number; end: number };

/**
 * Digest algorithms by OID, as node:crypto names them. Shared with the server's verification
 * and sealing code (server/src/modules/sealing): one table of these OIDs.
 */
export const DIGESTS: Readonly<Record<string, string>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
/**
 * Signature algorithms by OID, with the hash they fix (node:crypto's name); null for
 * rsaEncryption, which signs with the digest algorithm named beside it. Shared with the server.
 */
export const SIGNATURES: Readonly<Record<string, string | null>> = {
  '1.2.840.113549.1.1.1': null,
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};
const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const SIGNING_TIME = '1.2.840.113549.1.9.5';
const TIMESTAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';
const SUBJECT_KEY_ID = '2.5.29.14';

/** Checks a CMS SignedData against the bytes it signs (the PDF's two byte ranges, joined). */
export function checkCmsSignature(cms: Uint8Array, signedParts: Uint8Array[]): CmsCheck {
  const failed = (problem: string): CmsCheck => ({
    digestMatches: false,
    signatureValid: false,
    problem,
    timestamped: false,
  });
  try {
    const der = Buffer.from(cms.buffer, cms.byteOffset, cms.byteLength);
    const [, content] = children(der, read(der, 0));
    const signedData = children(der, children(der, content)[0]);
    const certificates = signedData
      .filter((n) => n.tag === 0xa0)
      .flatMap((n) => children(der, n))
      .map((n) => der.subarray(n.start, n.end));
    // SignedData: version, digestAlgorithms (a SET), encapContentInfo, [0] certificates,
    // [1] crls, signerInfos (the last SET).
    const signerInfos = signedData.findLast((n) => n.tag === 0x31);
    const info = signerInfos ? children(der, children(der, signerInfos)[0]) : [];
    const [, sid, digestAlgorithm, ...rest] = info;
    const signedAttrs = rest.find((n) => n.tag === 0xa0);
    const afterAttrs = rest.filter((n) => n.tag !== 0xa0);
    const [signatureAlgorithm, signatureValue, unsigned] = afterAttrs;
    if (!sid || !digestAlgorithm || !signedAttrs || !signatureValue) {
      return failed('the CMS has no signer with signed attributes');
    }
    const digestName = DIGESTS[oidOf(der, children(der, digestAlgorithm)[0])];
    const signatureOid = oidOf(der, children(der, signatureAlgorithm)[0]);
    if (!digestName) return failed('the digest algorithm is not supported');
    if (!(signatureOid in SIGNATURES)) return failed('the signature algorithm is not supported');

    const attributes = new Map(
      children(der, signedAttrs).map((a) => {
        const [type, values] = children(der, a);
        return [oidOf(der, type), children(der, values)[0]] as const;
      }),
    );
    const digestNode = attributes.get(MESSAGE_DIGEST);
    const hash = createHash(digestName);
    for (const part of signedParts) hash.update(part);
    const digestMatches =
      digestNode !== undefined &&
      hash.digest().equals(der.subarray(digestNode.contentStart, digestNode.end));

    const certificate = certificates.find((c) => identifies(der, sid, c));
    if (!certificate)
      return { ...failed("the signer's certificate is not in the CMS"), digestMatches };
    const x509 = new X509Certificate(certificate);
    // Signed as a SET OF (tag 0x31); embedded as [0] IMPLICIT.
    const attributesDer = Buffer.from(der.subarray(signedAttrs.start, signedAttrs.end));
    attributesDer[0] = 0x31;
    const signatureValid = verify(
      SIGNATURES[signatureOid] ?? digestName,
      attributesDer,
      { key: x509.publicKey, dsaEncoding: 'der' },
      der.subarray(signatureValue.contentStart, signatureValue.end),
    );
    const unsignedTypes = unsigned?.tag === 0xa1 ? children(der, unsigned) : [];
    const time = attributes.get(SIGNING_TIME);
    return {
      digestMatches,
      signatureValid,
      signer: {
        subject: x509.subject.split('\n').join(', '),
        issuer: x509.issuer.split('\n').join(', '),
        fingerprintSha256: createHash('sha256').update(certificate).digest('hex'),
        validFrom: new Date(x509.validFrom).toISOString(),
        validTo: new Date(x509.validTo).toISOString(),
      },
      signingTime: time ? timeOf(der, time) : undefined,
      timestamped: unsignedTypes.some((a) => oidOf(der, children(der, a)[0]) === TIMESTAMP_TOKEN),
    };
  } catch (err) {
    return failed(`the CMS cannot be read (${err instanceof Error ? err.message : String(err)})`);
  }
}

// The signer identifier names this certificate: issuer and serial number, or its key id.
function identifies(der: Buffer, sid: Node, certificate: Buffer): boolean {
  const tbs = children(certificate, children(certificate, read(certificate, 0))[0]);
  const fields = tbs[0]?.tag === 0xa0 ? tbs.slice(1) : tbs;
  const raw = (buffer: Buffer, node: Node | undefined) =>
    node ? buffer.subarray(node.start, node.end) : Buffer.alloc(0);
  if (sid.tag === 0x30) {
    const [issuer, serial] = children(der, sid);
    return (
      raw(der, issuer).equals(raw(certificate, fields[2])) &&
      raw(der, serial).equals(raw(certificate, fields[0]))
    );
  }
  if (sid.tag !== 0x80) return false;
  const keyId = der.subarray(sid.contentStart, sid.end);
  const extensions = tbs.find((n) => n.tag === 0xa3);
  if (!extensions) return false;
  return children(certificate, children(certificate, extensions)[0]).some((extension) => {
    const parts = children(certificate, extension);
    if (oidOf(certificate, parts[0]) !== SUBJECT_KEY_ID) return false;
    const value = parts[parts.length - 1];
    const inner = read(certificate, value.contentStart);
    return certificate.subarray(inner.contentStart, inner.end).equals(keyId);
  });
}

// One DER element (definite lengths only, as DER has them).
function read(der: Buffer, at: number): Node {
  const tag = der[at];
  let length = der[at + 1];
  let contentStart = at + 2;
  if (tag === undefined || length === undefined) throw new Error('truncated DER');
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new Error('unsupported DER length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der[at + 2 + i];
    contentStart += count;
  }
  const end = contentStart + length;
  if (end > der.length) throw new Error('truncated DER');
  return { tag, start: at, contentStart, end };
}

function children(der: Buffer, node: Node | undefined): Node[] {
  if (!node) throw new Error('missing DER element');
  const out: Node[] = [];
  for (let at = node.contentStart; at < node.end;) {
    const child = read(der, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

function oidOf(der: Buffer, node: Node | undefined): string {
  if (!node || node.tag !== 0x06) return '';
  const bytes = der.subarray(node.contentStart, node.end);
  const parts: number[] = [];
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      if (parts.length === 0)
        parts.push(
          Math.min(2, Math.floor(value / 40)),
          value - Math.min(2, Math.floor(value / 40)) * 40,
        );
      else parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

// signingTime: a SET holding a UTCTime (YYMMDDHHMMSSZ) or GeneralizedTime.
function timeOf(der: Buffer, node: Node): string | undefined {
  const text = der.subarray(node.contentStart, node.end).toString('latin1');
  const match = /^(\d{2}|\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(text);
  if (!match) return undefined;
  const year =
    match[1].length === 2
      ? (Number(match[1]) < 50 ? 2000 : 1900) + Number(match[1])
      : Number(match[1]);
  const [month, day, hour, minute, second] = match.slice(2).map(Number);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second)).toISOString();
}
