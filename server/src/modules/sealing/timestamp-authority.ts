import { createHash, randomBytes } from 'node:crypto';
import type { DigestAlgorithm, TimestampAuthority } from '@libpdf/core';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { DIGESTS } from '../../../../sdk/src/cms-signature.js';
import { OutsideFault } from './outside-fault.js';
import { requestOutside } from './outside-request.js';
import { signatureVerifies } from './signature-check.js';
import {
  DIGEST_OIDS,
  parseTimestampToken,
  type TimestampTokenContents,
} from './timestamp-token.js';

export { OutsideFault } from './outside-fault.js';

const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';
const OID_SIGNING_CERTIFICATE = '1.2.840.113549.1.9.16.2.12';
const OID_SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';
const OID_EXTENDED_KEY_USAGE = '2.5.29.37';
const OID_TIME_STAMPING = '1.3.6.1.5.5.7.3.8';

/**
 * What a time-stamp token says: its time, what it stamps, and its signer's certificates (for
 * the B-LT step, the chain to fetch revocation data for). Reads, does not verify; throws on
 * anything but a TSTInfo SignedData with its signer's certificate.
 */
export function readTimestampToken(token: Uint8Array): TimestampTokenContents {
  return parseTimestampToken(token).contents;
}

/**
 * @libpdf/core's TimestampAuthority for `url`, with what its HttpTimestampAuthority lacks: a
 * deadline over the whole exchange, a size cap, no redirects, and a token checked before it
 * is embedded (status, content type, imprint, nonce, signature, the signer's timeStamping
 * usage). A seal must not carry a token for another hash or six bytes of junk; every
 * failure is an OutsideFault('tsa') so the seal job retries rather than blames the document.
 */
export function checkedTimestampAuthority(
  url: string,
  options: { timeoutMs?: number; maxBytes?: number } = {},
): TimestampAuthority {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxBytes = options.maxBytes ?? 256 * 1024;
  const host = URL.canParse(url) ? new URL(url).host : url;
  return {
    async timestamp(digest: Uint8Array, algorithm: DigestAlgorithm): Promise<Uint8Array> {
      const hashOid = DIGEST_OIDS[algorithm];
      if (!hashOid) throw new Error(`cannot time-stamp a ${algorithm} digest`);
      // Positive and minimally encoded: a first byte of 0x40-0x7f.
      const nonce = randomBytes(8);
      nonce[0] = 0x40 | (nonce[0]! & 0x3f);
      const request = new pkijs.TimeStampReq({
        version: 1,
        messageImprint: new pkijs.MessageImprint({
          hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: hashOid }),
          hashedMessage: new asn1js.OctetString({ valueHex: digest }),
        }),
        nonce: new asn1js.Integer({ valueHex: nonce }),
        certReq: true,
      });
      const response = await requestOutside({
        url,
        body: new Uint8Array(request.toSchema().toBER(false)),
        contentType: 'application/timestamp-query',
        timeoutMs,
        maxBytes,
        source: 'tsa',
        service: 'the time-stamp authority',
      });
      const fault = (what: string) =>
        new OutsideFault('tsa', `the time-stamp authority at ${host} ${what}`);
      try {
        return checkResponse(response, { hashOid, digest, nonce }, fault);
      } catch (error) {
        if (error instanceof OutsideFault) throw error;
        // A parser's surprise on a malformed answer is the TSA's fault all the same.
        throw fault(`answered with a token that cannot be checked (${(error as Error).message})`);
      }
    },
  };
}

function checkResponse(
  response: Buffer,
  asked: { hashOid: string; digest: Uint8Array; nonce: Buffer },
  fault: (what: string) => OutsideFault,
): Uint8Array {
  const parsed = asn1js.fromBER(new Uint8Array(response));
  const fields = parsed.result instanceof asn1js.Sequence ? parsed.result.valueBlock.value : [];
  let status: number;
  try {
    if (parsed.offset === -1 || fields.length === 0) throw new Error('not DER');
    status = new pkijs.PKIStatusInfo({ schema: fields[0] }).status;
  } catch {
    throw fault(`answered with ${response.length} bytes that are not a time-stamp response`);
  }
  if (status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) {
    throw fault(`refused the request (PKIStatus ${STATUS_NAMES[status] ?? status})`);
  }
  if (!fields[1]) throw fault('granted the request but sent no token');
  // The token as received: re-encoding it could change the bytes its signature covers.
  const token = new Uint8Array(fields[1].valueBeforeDecodeView);
  let read: ReturnType<typeof parseTimestampToken>;
  try {
    read = parseTimestampToken(token);
  } catch (error) {
    throw fault(
      `answered with a token that is ${(error as Error).message.replace(/^not a time-stamp token: /, 'unusable: ')}`,
    );
  }
  const { tstInfo, signer, signedData } = read;
  const imprint = tstInfo.messageImprint;
  const hash = Buffer.from(imprint.hashedMessage.valueBlock.valueHexView);
  if (imprint.hashAlgorithm.algorithmId !== asked.hashOid || !hash.equals(asked.digest)) {
    throw fault('answered with a token for another hash');
  }
  const nonce = tstInfo.nonce ? Buffer.from(tstInfo.nonce.valueBlock.valueHexView) : null;
  if (!nonce || !nonce.equals(asked.nonce)) {
    throw fault('answered with a token for another request (its nonce differs)');
  }
  if (!signedByItsCertificate(signedData, read.contents.signerCertificate)) {
    throw fault('answered with a token whose signature does not verify with its certificate');
  }
  if (!namesItsSigner(signedData, read.contents.signerCertificate)) {
    throw fault(
      "answered with a token whose signed attributes do not name its signer's certificate",
    );
  }
  const usage = signer.extensions?.find((extension) => extension.extnID === OID_EXTENDED_KEY_USAGE);
  const purposes = (usage?.parsedValue as pkijs.ExtKeyUsage | undefined)?.keyPurposes ?? [];
  if (!usage?.critical || !purposes.includes(OID_TIME_STAMPING)) {
    throw fault('signed its token with a certificate not marked (critical) for time-stamping');
  }
  return token;
}

const STATUS_NAMES: Record<number, string> = {
  2: 'rejection',
  3: 'waiting',
  4: 'revocationWarning',
  5: 'revocationNotification',
};

// The signed attributes must bind the TSTInfo (content type, message digest) and verify with
// the certificate the signer info names.
function signedByItsCertificate(signedData: pkijs.SignedData, certificate: Uint8Array): boolean {
  const signerInfo = signedData.signerInfos[0];
  const attributes = signerInfo?.signedAttrs;
  const content = signedData.encapContentInfo.eContent;
  if (!signerInfo || !attributes || !content) return false;
  const value = (type: string) =>
    attributes.attributes.find((attribute) => attribute.type === type)?.values[0];
  const contentType = value(OID_CONTENT_TYPE);
  if (!(contentType instanceof asn1js.ObjectIdentifier)) return false;
  if (contentType.valueBlock.toString() !== OID_TST_INFO) return false;
  const digestName = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
  const messageDigest = value(OID_MESSAGE_DIGEST);
  if (!digestName || !(messageDigest instanceof asn1js.OctetString)) return false;
  const contentHash = createHash(digestName).update(new Uint8Array(content.getValue())).digest();
  if (!contentHash.equals(messageDigest.valueBlock.valueHexView)) return false;
  return signatureVerifies({
    data: new Uint8Array(attributes.encodedValue),
    signature: new Uint8Array(signerInfo.signature.valueBlock.valueHexView),
    signatureAlgorithm: signerInfo.signatureAlgorithm.algorithmId,
    digestAlgorithm: signerInfo.digestAlgorithm.algorithmId,
    signer: certificate,
  });
}

// RFC 3161 (and RFC 5816 for SHA-2) binds the signer's certificate into the signature: the
// signed attributes hold an ESSCertID(v2) whose first hash is that certificate's. One naming
// another certificate is refused. One missing is tolerated: RFC 3161 requires it, but the
// checks above already tie the token to the certificate it carries, and test TSAs
// (test/sealing/fake-tsa.ts) leave it out.
function namesItsSigner(signedData: pkijs.SignedData, certificate: Uint8Array): boolean {
  const attributes = signedData.signerInfos[0]?.signedAttrs?.attributes ?? [];
  for (const attribute of attributes) {
    const v2 = attribute.type === OID_SIGNING_CERTIFICATE_V2;
    if (!v2 && attribute.type !== OID_SIGNING_CERTIFICATE) continue;
    // SigningCertificate(V2) ::= SEQUENCE { certs SEQUENCE OF ESSCertID(v2), ... }
    const certs = (attribute.values[0] as asn1js.Sequence | undefined)?.valueBlock.value[0];
    const first = (certs as asn1js.Sequence | undefined)?.valueBlock.value[0];
    const fields = (first as asn1js.Sequence | undefined)?.valueBlock.value ?? [];
    // ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash, issuerSerial OPTIONAL };
    // ESSCertID ::= SEQUENCE { certHash (SHA-1), issuerSerial OPTIONAL }.
    const withAlgorithm = v2 && fields[0] instanceof asn1js.Sequence;
    const hashField = fields[withAlgorithm ? 1 : 0];
    if (!(hashField instanceof asn1js.OctetString)) return false;
    let digest = v2 ? 'sha256' : 'sha1';
    if (withAlgorithm) {
      const oid = (fields[0] as asn1js.Sequence).valueBlock.value[0];
      const named =
        oid instanceof asn1js.ObjectIdentifier ? DIGESTS[oid.valueBlock.toString()] : undefined;
      if (!named) return false;
      digest = named;
    }
    const expected = createHash(digest).update(certificate).digest();
    return expected.equals(hashField.valueBlock.valueHexView);
  }
  return true;
}
