import { createHash } from 'node:crypto';
import {
  PdfArray,
  PdfDict,
  PdfName,
  PdfNumber,
  PdfString,
  type PDF,
  type Signer,
  type TimestampAuthority,
} from '@libpdf/core';
import * as asn1js from 'asn1js';

/**
 * A PAdES B-B (or, with a timestamp authority, B-T) signature as @libpdf/core 0.4.2's
 * `pdf.sign()` makes it with the ETSI.CAdES.detached sub-filter and SHA-256, byte for byte but
 * for two deliberate differences (a test compares the rest): no signing-time attribute, and
 * NULL parameters in the SignerInfo's RSA signature algorithm. Made at a fraction of its cost:
 * the library parses the signer's
 * certificate into pkijs objects and serialises it back on every signature, three times over
 * (the signing-certificate attribute's hash, the signer's issuer and serial, the certificate
 * set), and after signing re-reads the whole signed file and saves it once more: 1.5 ms of a
 * 6.6 ms ten-page seal (docs/benchmarks.md). Here what depends only on the certificate is
 * encoded once per signer, and a signature's CMS is the concatenation of those parts with the
 * few that change (the document's hash, the signature value, the timestamp token).
 *
 * The PDF side is the library's: the signature dictionary with its placeholders, an invisible
 * signature field on the first page, an incremental save; then the placeholders are filled in.
 */
export async function signPdf(
  pdf: PDF,
  options: {
    signer: Signer;
    fieldName: string;
    reason: string;
    signingTime: Date;
    /** Bytes reserved for the CMS; what it does not use is zero padding. */
    reservedBytes: number;
    timestampAuthority?: TimestampAuthority;
  },
): Promise<Uint8Array> {
  const { signer, signingTime } = options;
  const parts = certificateParts(signer);
  const firstPage = pdf.getPage(0);
  if (!firstPage) throw new Error('Cannot sign a PDF without pages');

  // The same dictionary, in the same order, as the library's: its placeholders serialise to
  // the library's placeholder lengths, `[0 ********** ********** **********]` and `<00…00>`.
  const signature = PdfDict.of({
    Type: PdfName.of('Sig'),
    Filter: PdfName.of('Adobe.PPKLite'),
    SubFilter: PdfName.of('ETSI.CAdES.detached'),
    ByteRange: new PdfArray([0, ...BYTE_RANGE_UNKNOWN].map((n) => PdfNumber.of(n))),
    Contents: new PdfString(new Uint8Array(options.reservedBytes), 'hex'),
  });
  signature.set('M', PdfString.fromString(pdfDate(signingTime)));
  signature.set('Reason', PdfString.fromString(options.reason));
  const signatureRef = pdf.context.registry.register(signature);
  // An invisible widget merged into its field, as the library makes it.
  const form = (
    pdf as unknown as { getOrCreateForm: () => FormWithSignatureFields }
  ).getOrCreateForm();
  const field = form.createSignatureField(options.fieldName).getDict();
  field.set('V', signatureRef);
  field.delete('Kids');
  field.set('Type', PdfName.of('Annot'));
  field.set('Subtype', PdfName.of('Widget'));
  field.set('F', PdfNumber.of(PRINT_AND_LOCKED));
  field.set('P', firstPage.ref);
  field.set('Rect', new PdfArray([0, 0, 0, 0].map((n) => PdfNumber.of(n))));

  const bytes = await pdf.save({ incremental: true, compressionThreshold: COMPRESS_FROM });
  const { byteRangeAt, contentsAt, contentsEnd } = findPlaceholders(bytes);
  const byteRange = [0, contentsAt - 1, contentsEnd + 1, bytes.length - contentsEnd - 1];
  // Written over the placeholder's 36 characters, each length padded to its ten.
  const written = `[${byteRange.map((n, i) => (i === 0 ? n : String(n).padEnd(10))).join(' ')}]`;
  if (bytes[byteRangeAt + written.length - 1] !== CLOSING_BRACKET) {
    throw new Error('the /ByteRange placeholder was not written as expected');
  }
  bytes.set(Buffer.from(written, 'latin1'), byteRangeAt);
  const documentHash = createHash('sha256')
    .update(bytes.subarray(0, byteRange[1]))
    .update(bytes.subarray(byteRange[2]))
    .digest();

  // No signing-time attribute: PAdES baseline forbids it (EN 319 142-1, table 1); the claimed
  // time is the dictionary's /M, the proven one the time-stamp token's.
  const signedAttributes = [
    parts.contentType,
    parts.algorithmProtection,
    attribute(OID.messageDigest, der(OCTET_STRING, documentHash)),
    parts.signingCertificate,
  ];
  // Signed as a SET OF, embedded as [0] IMPLICIT.
  const signatureValue = await signer.sign(der(SET, ...signedAttributes), 'SHA-256');
  let unsignedAttributes: Uint8Array[] = [];
  if (options.timestampAuthority) {
    const signatureHash = createHash('sha256').update(signatureValue).digest();
    const token = await options.timestampAuthority.timestamp(signatureHash, 'SHA-256');
    unsignedAttributes = [der(CONTEXT_1, attribute(OID.timestampToken, token))];
  }
  const signerInfo = der(
    SEQUENCE,
    VERSION_1,
    parts.issuerAndSerialNumber,
    SHA256_ALGORITHM,
    der(CONTEXT_0, ...signedAttributes),
    parts.signatureAlgorithm,
    der(OCTET_STRING, signatureValue),
    ...unsignedAttributes,
  );
  const cms = der(
    SEQUENCE,
    SIGNED_DATA_OID,
    der(
      CONTEXT_0,
      der(
        SEQUENCE,
        VERSION_1,
        der(SET, SHA256_ALGORITHM),
        der(SEQUENCE, DATA_OID),
        parts.certificates,
        der(SET, signerInfo),
      ),
    ),
  );
  const hex = Buffer.from(cms).toString('hex').toUpperCase();
  if (hex.length > contentsEnd - contentsAt) {
    throw new Error(
      `the signature needs ${cms.length} bytes, ${options.reservedBytes} were reserved`,
    );
  }
  bytes.set(Buffer.from(hex, 'latin1'), contentsAt);
  return bytes;
}

// Streams under 1 KiB (a page's few field values, most of them) are written as they are:
// deflating one costs a zlib set-up of 10–15 µs and saves a few hundred bytes of a file of
// hundreds of kB. @libpdf/core's default is 512 bytes.
const COMPRESS_FROM = 1024;

type FormWithSignatureFields = {
  createSignatureField: (name: string) => { getDict: () => PdfDict };
};

// Annotation flags: print (4) and locked (128).
const PRINT_AND_LOCKED = 132;
// Ten digits each, as the library's placeholder: the values are written over them, padded.
const BYTE_RANGE_UNKNOWN = [9_999_999_999, 9_999_999_999, 9_999_999_999];

const CLOSING_BRACKET = 0x5d;

/** The library's date form for /M (and a DSS's /TU): UTC, to the second. */
export function pdfDate(date: Date): string {
  return `D:${date.toISOString().slice(0, 19).replace(/[-T:]/g, '')}Z`;
}

/** The /Contents of the file's last signature as written (its padding included). */
export function lastSignatureContents(bytes: Uint8Array): Uint8Array {
  const { contentsAt, contentsEnd } = findPlaceholders(bytes);
  return Buffer.from(
    Buffer.from(bytes.subarray(contentsAt, contentsEnd)).toString('latin1'),
    'hex',
  );
}

// The last /ByteRange of the file (the one just written: earlier signatures come before it),
// and the /Contents hex string after it.
function findPlaceholders(bytes: Uint8Array) {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const key = text.lastIndexOf('/ByteRange');
  const byteRangeAt = key < 0 ? -1 : text.indexOf('[', key);
  const contentsKey = key < 0 ? -1 : text.indexOf('/Contents', key);
  const contentsAt = contentsKey < 0 ? -1 : text.indexOf('<', contentsKey) + 1;
  const contentsEnd = contentsAt <= 0 ? -1 : text.indexOf('>', contentsAt);
  if (byteRangeAt < 0 || contentsEnd < 0)
    throw new Error('the signature placeholders were not written');
  return { byteRangeAt, contentsAt, contentsEnd };
}

/** The parts of a signature's CMS that depend only on its signer, encoded once per signer. */
type CertificateParts = {
  contentType: Uint8Array;
  algorithmProtection: Uint8Array;
  signingCertificate: Uint8Array;
  issuerAndSerialNumber: Uint8Array;
  signatureAlgorithm: Uint8Array;
  certificates: Uint8Array;
};

const partsBySigner = new WeakMap<Signer, CertificateParts>();

function certificateParts(signer: Signer): CertificateParts {
  let parts = partsBySigner.get(signer);
  if (parts) return parts;
  const { issuer, serialNumber } = issuerAndSerial(signer.certificate);
  // RSA keys sign sha256WithRSAEncryption, whose parameters are NULL (RFC 4055) both in the
  // algorithm protection attribute and in the SignerInfo, which must agree (RFC 6211; pkijs
  // leaves them out of the SignerInfo); ECDSA's have none.
  const rsa = signer.keyType === 'RSA';
  const signatureOid = encodeOid(rsa ? '1.2.840.113549.1.1.11' : '1.2.840.10045.4.3.2');
  parts = {
    contentType: attribute(OID.contentType, DATA_OID),
    algorithmProtection: attribute(
      OID.algorithmProtection,
      der(SEQUENCE, SHA256_ALGORITHM, der(CONTEXT_1, signatureOid, ...(rsa ? [der(NULL)] : []))),
    ),
    // ESS signing-certificate-v2 (RFC 5035): the certificate's SHA-256 (the default hash, so
    // no algorithm) and its issuer as a directoryName with its serial number.
    signingCertificate: attribute(
      OID.signingCertificateV2,
      der(
        SEQUENCE,
        der(
          SEQUENCE,
          der(
            SEQUENCE,
            der(OCTET_STRING, createHash('sha256').update(signer.certificate).digest()),
            der(SEQUENCE, der(SEQUENCE, der(CONTEXT_4, issuer)), serialNumber),
          ),
        ),
      ),
    ),
    issuerAndSerialNumber: der(SEQUENCE, issuer, serialNumber),
    signatureAlgorithm: der(SEQUENCE, signatureOid, ...(rsa ? [der(NULL)] : [])),
    certificates: der(CONTEXT_0, signer.certificate, ...(signer.certificateChain ?? [])),
  };
  partsBySigner.set(signer, parts);
  return parts;
}

// The certificate's issuer Name and serialNumber INTEGER, as encoded in it.
function issuerAndSerial(certificate: Uint8Array) {
  const unreadable = () => new Error('the signing certificate cannot be read');
  const parsed = asn1js.fromBER(certificate);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) throw unreadable();
  const tbs = parsed.result.valueBlock.value[0];
  if (!(tbs instanceof asn1js.Sequence)) throw unreadable();
  // TBSCertificate: [0] version (absent for v1), serialNumber, signature, issuer, …
  const fields = tbs.valueBlock.value;
  const first = fields[0]?.idBlock.tagClass === 3 ? 1 : 0;
  const raw = (block: asn1js.AsnType | undefined) => {
    if (!block) throw unreadable();
    return new Uint8Array(block.valueBeforeDecodeView);
  };
  return { serialNumber: raw(fields[first]), issuer: raw(fields[first + 2]) };
}

const SEQUENCE = 0x30;
const SET = 0x31;
const OCTET_STRING = 0x04;
const NULL = 0x05;
const CONTEXT_0 = 0xa0;
const CONTEXT_1 = 0xa1;
const CONTEXT_4 = 0xa4;

/** A DER element: its tag, its length, then the given encoded elements. */
function der(tag: number, ...content: Uint8Array[]): Uint8Array {
  const length = content.reduce((sum, part) => sum + part.length, 0);
  const lengthBytes: number[] = [];
  if (length < 0x80) lengthBytes.push(length);
  else {
    for (let rest = length; rest > 0; rest = Math.floor(rest / 256))
      lengthBytes.unshift(rest % 256);
    lengthBytes.unshift(0x80 | lengthBytes.length);
  }
  const out = new Uint8Array(1 + lengthBytes.length + length);
  out[0] = tag;
  out.set(lengthBytes, 1);
  let at = 1 + lengthBytes.length;
  for (const part of content) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function encodeOid(dotted: string): Uint8Array {
  return new Uint8Array(new asn1js.ObjectIdentifier({ value: dotted }).toBER());
}

// Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue }
function attribute(type: Uint8Array, value: ArrayBuffer | Uint8Array): Uint8Array {
  return der(SEQUENCE, type, der(SET, new Uint8Array(value)));
}

const OID = {
  contentType: encodeOid('1.2.840.113549.1.9.3'),
  messageDigest: encodeOid('1.2.840.113549.1.9.4'),
  algorithmProtection: encodeOid('1.2.840.113549.1.9.52'),
  timestampToken: encodeOid('1.2.840.113549.1.9.16.2.14'),
  signingCertificateV2: encodeOid('1.2.840.113549.1.9.16.2.47'),
};
const DATA_OID = encodeOid('1.2.840.113549.1.7.1');
const SIGNED_DATA_OID = encodeOid('1.2.840.113549.1.7.2');
// AlgorithmIdentifier for SHA-256 without parameters, as pkijs writes it.
const SHA256_ALGORITHM = der(SEQUENCE, encodeOid('2.16.840.1.101.3.4.2.1'));
const VERSION_1 = new Uint8Array([0x02, 0x01, 0x01]);
