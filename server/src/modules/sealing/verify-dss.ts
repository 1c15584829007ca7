import { createHash } from 'node:crypto';
import { PdfArray, PdfDict, PdfRef, PdfStream, type PDF, type PdfObject } from '@libpdf/core';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { DIGESTS } from '../../../../sdk/src/cms-signature.js';
import { derOf, verifiesWith } from './verify-cms.js';

/** A document security store's contents (ISO 32000-2 §12.8.4.3), decoded. */
export type Dss = { certificates: Uint8Array[]; ocsps: Uint8Array[]; crls: Uint8Array[] };

const OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';
// Entries read per array at most: a DSS holds a handful.
const MAX_ENTRIES = 256;
const MAX_CHAIN = 10;

/** The catalog's /DSS, or undefined when there is none (or the file did not load). */
export function readDss(pdf: PDF | undefined): Dss | undefined {
  if (!pdf) return undefined;
  const resolve = (value: PdfObject | undefined) =>
    value instanceof PdfRef ? (pdf.getObject(value) ?? undefined) : value;
  const dss = resolve(pdf.getCatalog().get('DSS'));
  if (!(dss instanceof PdfDict)) return undefined;
  const streams = (key: string): Uint8Array[] => {
    const array = resolve(dss.get(key));
    if (!(array instanceof PdfArray)) return [];
    return array
      .toArray()
      .slice(0, MAX_ENTRIES)
      .map((entry) => resolve(entry))
      .filter((entry): entry is PdfStream => entry instanceof PdfStream)
      .flatMap((stream) => {
        try {
          return [stream.getDecodedData()];
        } catch {
          return [];
        }
      });
  };
  return { certificates: streams('Certs'), ocsps: streams('OCSPs'), crls: streams('CRLs') };
}

/**
 * The certificate's chain, leaf first: each certificate's issuer found in `pool` by name and
 * checked by its signature, up to a self-signed one or the first whose issuer is not there.
 */
export function chainOf(leaf: pkijs.Certificate, pool: pkijs.Certificate[]): pkijs.Certificate[] {
  const chain = [leaf];
  for (let current = leaf; chain.length < MAX_CHAIN && !selfSigned(current);) {
    const issuer = pool.find((c) => c.subject.isEqual(current.issuer) && issued(c, current));
    if (!issuer || chain.includes(issuer)) break;
    chain.push(issuer);
    current = issuer;
  }
  return chain;
}

/** Certificates parsed from DER, those that parse. */
export function parseCertificates(ders: Uint8Array[]): pkijs.Certificate[] {
  return ders.flatMap((der) => {
    try {
      return [pkijs.Certificate.fromBER(Uint8Array.from(der))];
    } catch {
      return [];
    }
  });
}

/**
 * True when the DSS holds every certificate of each chain and, for each but a self-signed
 * one (a trust anchor, which no one revokes), an OCSP response saying it is good or a CRL of
 * its issuer not listing it, each signed by the issuer (or, for OCSP, a responder it certified).
 */
export function dssCoversChains(dss: Dss, chains: pkijs.Certificate[][]): boolean {
  const held = new Set(dss.certificates.map((der) => Buffer.from(der).toString('hex')));
  const ocsps = dss.ocsps.flatMap(parseOcsp);
  const crls = dss.crls.flatMap(parseCrl);
  return chains.every((chain) =>
    chain.every((certificate, i) => {
      if (!held.has(Buffer.from(derOf(certificate)).toString('hex'))) return false;
      if (selfSigned(certificate)) return true;
      const issuer = chain[i + 1];
      if (!issuer) return false;
      return (
        ocsps.some((response) => ocspSaysGood(response, certificate, issuer)) ||
        crls.some((crl) => crlClears(crl, certificate, issuer))
      );
    }),
  );
}

function selfSigned(certificate: pkijs.Certificate): boolean {
  return certificate.subject.isEqual(certificate.issuer) && issued(certificate, certificate);
}

// True when `issuer`'s key signed `certificate`.
function issued(issuer: pkijs.Certificate, certificate: pkijs.Certificate): boolean {
  return verifiesWith(
    certificate.signatureAlgorithm.algorithmId,
    undefined,
    certificate.tbsView,
    new Uint8Array(certificate.signatureValue.valueBlock.valueHexView),
    derOf(issuer),
  );
}

function parseOcsp(der: Uint8Array): pkijs.BasicOCSPResponse[] {
  try {
    const response = pkijs.OCSPResponse.fromBER(Uint8Array.from(der));
    const bytes = response.responseBytes;
    if (response.responseStatus.valueBlock.valueDec !== 0 || !bytes) return [];
    if (bytes.responseType !== OCSP_BASIC) return [];
    return [
      pkijs.BasicOCSPResponse.fromBER(Uint8Array.from(bytes.response.valueBlock.valueHexView)),
    ];
  } catch {
    return [];
  }
}

function parseCrl(der: Uint8Array): pkijs.CertificateRevocationList[] {
  try {
    return [pkijs.CertificateRevocationList.fromBER(Uint8Array.from(der))];
  } catch {
    return [];
  }
}

function ocspSaysGood(
  response: pkijs.BasicOCSPResponse,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
): boolean {
  const single = response.tbsResponseData.responses.find((r) => {
    const hash = DIGESTS[r.certID.hashAlgorithm.algorithmId];
    if (!hash || !r.certID.serialNumber.isEqual(certificate.serialNumber)) return false;
    const nameHash = createHash(hash).update(
      new Uint8Array(certificate.issuer.toSchema().toBER(false)),
    );
    const keyHash = createHash(hash).update(
      issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView,
    );
    return (
      nameHash.digest().equals(r.certID.issuerNameHash.valueBlock.valueHexView) &&
      keyHash.digest().equals(r.certID.issuerKeyHash.valueBlock.valueHexView)
    );
  });
  // certStatus good is [0] IMPLICIT NULL.
  const status: unknown = single?.certStatus;
  if (!(status instanceof asn1js.BaseBlock) || status.idBlock.tagClass !== 3) return false;
  if (status.idBlock.tagNumber !== 0) return false;
  // Signed by the issuer itself, or by a responder the issuer certified.
  const signers = [issuer, ...(response.certs ?? []).filter((c) => issued(issuer, c))];
  return signers.some((signer) =>
    verifiesWith(
      response.signatureAlgorithm.algorithmId,
      undefined,
      response.tbsResponseData.tbsView,
      new Uint8Array(response.signature.valueBlock.valueHexView),
      derOf(signer),
    ),
  );
}

function crlClears(
  crl: pkijs.CertificateRevocationList,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
): boolean {
  if (!crl.issuer.isEqual(certificate.issuer)) return false;
  const signed = verifiesWith(
    crl.signatureAlgorithm.algorithmId,
    undefined,
    crl.tbsView,
    new Uint8Array(crl.signatureValue.valueBlock.valueHexView),
    derOf(issuer),
  );
  const listed = (crl.revokedCertificates ?? []).some((r) =>
    r.userCertificate.isEqual(certificate.serialNumber),
  );
  return signed && !listed;
}
