import { X509Certificate, createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { signatureVerifies } from './signature-check.js';

const OID_SHA1 = '1.3.14.3.2.26';
const OID_OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';
const OID_OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';
const OID_AUTHORITY_INFO_ACCESS = '1.3.6.1.5.5.7.1.1';
const OID_OCSP_METHOD = '1.3.6.1.5.5.7.48.1';
const OID_CRL_DISTRIBUTION_POINTS = '2.5.29.31';
const URI_NAME = 6;
// Clocks differ: a response made a little "in the future" by its responder is still fresh.
const CLOCK_SKEW_MS = 5 * 60_000;

/** A sentence saying what is wrong with an answer, to follow "the OCSP responder at host". */
export class RevocationDataError extends Error {}

/** What a checked OCSP response or CRL says about one certificate. */
export type RevocationAnswer = {
  /** Until when it may be reused: its nextUpdate, or null when it names none. */
  nextUpdate: Date | null;
  /** Null when the certificate is not revoked; otherwise when it was. */
  revokedAt: Date | null;
};

/** The certificate's OCSP responder URLs (AIA) and CRL URLs (distribution points), http(s) only. */
export function revocationUrls(certificate: pkijs.Certificate): { ocsp: string[]; crl: string[] } {
  const extension = (oid: string) =>
    certificate.extensions?.find((candidate) => candidate.extnID === oid)?.parsedValue as unknown;
  const web = (url: unknown): url is string => typeof url === 'string' && /^https?:\/\//i.test(url);
  const aia = extension(OID_AUTHORITY_INFO_ACCESS) as pkijs.InfoAccess | undefined;
  const ocsp = (aia?.accessDescriptions ?? [])
    .filter((description) => description.accessMethod === OID_OCSP_METHOD)
    .map((description) => description.accessLocation)
    .filter((name) => name.type === URI_NAME)
    .map((name) => name.value as unknown)
    .filter(web);
  const points = extension(OID_CRL_DISTRIBUTION_POINTS) as pkijs.CRLDistributionPoints | undefined;
  const crl = (points?.distributionPoints ?? [])
    .flatMap((point) => (Array.isArray(point.distributionPoint) ? point.distributionPoint : []))
    .filter((name) => name.type === URI_NAME)
    .map((name) => name.value as unknown)
    .filter(web);
  return { ocsp, crl };
}

/** The SHA-1 CertID (what responders commonly expect) and the OCSP request asking for it. */
export function ocspRequestFor(certificate: pkijs.Certificate, issuer: pkijs.Certificate) {
  const sha1 = (bytes: ArrayBuffer | Uint8Array) =>
    createHash('sha1').update(new Uint8Array(bytes)).digest();
  const certId = {
    nameHash: sha1(issuer.subject.toSchema().toBER(false)),
    keyHash: sha1(issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
    serial: Buffer.from(certificate.serialNumber.valueBlock.valueHexView),
  };
  const sequence = (...value: asn1js.AsnType[]) => new asn1js.Sequence({ value });
  const request = sequence(
    sequence(
      sequence(
        sequence(
          sequence(
            sequence(new asn1js.ObjectIdentifier({ value: OID_SHA1 }), new asn1js.Null()),
            new asn1js.OctetString({ valueHex: certId.nameHash }),
            new asn1js.OctetString({ valueHex: certId.keyHash }),
            new asn1js.Integer({ valueHex: certId.serial }),
          ),
        ),
      ),
    ),
  );
  return { certId, request: new Uint8Array(request.toBER(false)) };
}

/**
 * Checks an OCSP response: successful, basic, signed by the issuer or by a responder the
 * issuer delegated (id-kp-OCSPSigning), with a SingleResponse for this CertID that is current
 * (thisUpdate not ahead, nextUpdate not past). Throws a sentence saying what is wrong.
 */
export function checkOcspResponse(
  bytes: Uint8Array,
  certId: ReturnType<typeof ocspRequestFor>['certId'],
  issuer: Uint8Array,
  now: Date,
): RevocationAnswer {
  const response = parse(() => pkijs.OCSPResponse.fromBER(new Uint8Array(bytes)), NOT_OCSP);
  const status = response.responseStatus.valueBlock.valueDec;
  if (status !== 0)
    throw new RevocationDataError(`answered with OCSP status ${status}, not successful`);
  if (response.responseBytes?.responseType !== OID_OCSP_BASIC) {
    throw new RevocationDataError('answered without a basic OCSP response');
  }
  const basicBytes = new Uint8Array(response.responseBytes.response.valueBlock.valueHexView);
  const basic = parse(() => pkijs.BasicOCSPResponse.fromBER(basicBytes), NOT_OCSP);
  const single = basic.tbsResponseData.responses.find(
    (candidate) =>
      candidate.certID.hashAlgorithm.algorithmId === OID_SHA1 &&
      certId.nameHash.equals(candidate.certID.issuerNameHash.valueBlock.valueHexView) &&
      certId.keyHash.equals(candidate.certID.issuerKeyHash.valueBlock.valueHexView) &&
      certId.serial.equals(candidate.certID.serialNumber.valueBlock.valueHexView),
  );
  if (!single) throw new RevocationDataError('answered about another certificate');
  const issuerX509 = new X509Certificate(issuer);
  // The issuer itself, or a responder certificate it issued for OCSP signing.
  const signers = [
    issuerX509,
    ...(basic.certs ?? [])
      .map(
        (certificate) => new X509Certificate(new Uint8Array(certificate.toSchema().toBER(false))),
      )
      .filter(
        (candidate) =>
          candidate.checkIssued(issuerX509) &&
          candidate.verify(issuerX509.publicKey) &&
          (candidate.keyUsage ?? []).includes(OID_OCSP_SIGNING),
      ),
  ];
  const signed = signers.some((signer) =>
    signatureVerifies({
      data: basic.tbsResponseData.tbsView,
      signature: basic.signature.valueBlock.valueHexView,
      signatureAlgorithm: basic.signatureAlgorithm.algorithmId,
      signer: signer.publicKey,
    }),
  );
  if (!signed)
    throw new RevocationDataError('answered with a response its issuer or responder did not sign');
  checkCurrent(single.thisUpdate, single.nextUpdate ?? null, now);
  const certStatus = single.certStatus as asn1js.AsnType & { idBlock: { tagNumber: number } };
  if (certStatus.idBlock.tagNumber === 2)
    throw new RevocationDataError('does not know the certificate');
  let revokedAt: Date | null = null;
  if (certStatus.idBlock.tagNumber === 1) {
    const time = (certStatus as asn1js.Constructed).valueBlock.value?.[0];
    revokedAt = time instanceof asn1js.GeneralizedTime ? time.toDate() : new Date(0);
  }
  return { nextUpdate: single.nextUpdate ?? null, revokedAt };
}

/**
 * Checks a CRL: signed by `issuer`, issued by it, current. Returns the serial numbers it lists
 * (hex, as in the certificate) with their revocation dates, to answer for any certificate of
 * that issuer without parsing the CRL again.
 */
export function checkCrl(
  bytes: Uint8Array,
  issuer: Uint8Array,
  now: Date,
): { nextUpdate: Date | null; revoked: Map<string, Date> } {
  const crl = parse(
    () => pkijs.CertificateRevocationList.fromBER(new Uint8Array(bytes)),
    'served something that is not a CRL',
  );
  const issuerCertificate = pkijs.Certificate.fromBER(new Uint8Array(issuer));
  if (!crl.issuer.isEqual(issuerCertificate.subject)) {
    throw new RevocationDataError("served a CRL of another issuer than the certificate's");
  }
  const signed = signatureVerifies({
    data: crl.tbsView,
    signature: crl.signatureValue.valueBlock.valueHexView,
    signatureAlgorithm: crl.signatureAlgorithm.algorithmId,
    signer: issuer,
  });
  if (!signed) throw new RevocationDataError('served a CRL its issuer did not sign');
  const nextUpdate = crl.nextUpdate?.value ?? null;
  checkCurrent(crl.thisUpdate.value, nextUpdate, now);
  const revoked = new Map<string, Date>();
  for (const entry of crl.revokedCertificates ?? []) {
    revoked.set(serialHex(entry.userCertificate), entry.revocationDate.value);
  }
  return { nextUpdate, revoked };
}

/** A certificate's serial number as lowercase hex of its INTEGER content. */
export function serialHex(serial: asn1js.Integer): string {
  return Buffer.from(serial.valueBlock.valueHexView).toString('hex');
}

function checkCurrent(thisUpdate: Date, nextUpdate: Date | null, now: Date): void {
  if (thisUpdate.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw new RevocationDataError(
      `answered with data dated ${thisUpdate.toISOString()}, in the future`,
    );
  }
  if (nextUpdate && nextUpdate.getTime() < now.getTime() - CLOCK_SKEW_MS) {
    throw new RevocationDataError(`answered with data that expired at ${nextUpdate.toISOString()}`);
  }
}

const NOT_OCSP = 'answered with something that is not an OCSP response';

// pkijs throws schema errors that say nothing to an operator.
function parse<T>(read: () => T, otherwise: string): T {
  try {
    return read();
  } catch {
    throw new RevocationDataError(otherwise);
  }
}

/**
 * A certificate's issuer among `pool` (itself when self-signed), by name and signature;
 * remembered per pair, since a seal asks about the same chain each time.
 */
const issuers = new Map<string, Uint8Array | null>();
export function issuerOf(certificate: Uint8Array, pool: Uint8Array[]): Uint8Array | null {
  const key = `${sha1Hex(certificate)} ${pool.map(sha1Hex).join(',')}`;
  if (issuers.has(key)) return issuers.get(key)!;
  const x509 = new X509Certificate(certificate);
  const found =
    pool.find((candidate) => {
      const issuer = new X509Certificate(candidate);
      return x509.checkIssued(issuer) && x509.verify(issuer.publicKey);
    }) ?? null;
  issuers.set(key, found);
  if (issuers.size > 1000) issuers.delete(issuers.keys().next().value!);
  return found;
}

const sha1Hex = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');
