import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { DIGESTS } from '../../../../sdk/src/cms-signature.js';

const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';

/** OIDs by digest name as @libpdf/core spells it ("SHA-256"): the SDK's DIGESTS, turned round. */
export const DIGEST_OIDS: Record<string, string> = Object.fromEntries(
  Object.entries(DIGESTS).map(([oid, name]) => [name.toUpperCase().replace('SHA', 'SHA-'), oid]),
);

/** What a time-stamp token says, and who signed it. */
export type TimestampTokenContents = {
  genTime: Date;
  /** `algorithm` is a name from DIGEST_OIDS ("SHA-256"), or the OID when unknown. */
  imprint: { algorithm: string; hash: Uint8Array };
  /** DER of the certificate the signer info names, from the token's certificate set. */
  signerCertificate: Uint8Array;
  /** DER of every certificate in the token, the signer's first. */
  certificates: Uint8Array[];
};

/** A token parsed down to the parts checks need; throws on anything but a TSTInfo SignedData. */
export function parseTimestampToken(token: Uint8Array) {
  const fail = (what: string): never => {
    throw new Error(`not a time-stamp token: ${what}`);
  };
  const parsed = asn1js.fromBER(new Uint8Array(token));
  if (parsed.offset === -1) fail('not DER');
  let contentInfo: pkijs.ContentInfo;
  let signedData: pkijs.SignedData;
  try {
    contentInfo = new pkijs.ContentInfo({ schema: parsed.result });
    if (contentInfo.contentType !== OID_SIGNED_DATA) fail('not CMS SignedData');
    signedData = new pkijs.SignedData({ schema: contentInfo.content });
  } catch (error) {
    return fail(error instanceof Error ? error.message : 'not CMS SignedData');
  }
  const encap = signedData.encapContentInfo;
  if (encap.eContentType !== OID_TST_INFO) fail(`content type ${encap.eContentType}, not TSTInfo`);
  if (!encap.eContent) fail('no TSTInfo inside');
  let tstInfo: pkijs.TSTInfo;
  try {
    tstInfo = pkijs.TSTInfo.fromBER(encap.eContent!.getValue());
  } catch {
    return fail('its TSTInfo cannot be read');
  }
  if (!(tstInfo.genTime instanceof Date) || Number.isNaN(tstInfo.genTime.getTime())) {
    fail('no genTime');
  }
  const signerInfo = signedData.signerInfos[0];
  if (signedData.signerInfos.length !== 1 || !signerInfo) fail('not exactly one signer');
  const certificates = (signedData.certificates ?? []).filter(
    (certificate): certificate is pkijs.Certificate => certificate instanceof pkijs.Certificate,
  );
  const signer = certificates.find((certificate) => names(signerInfo!.sid, certificate));
  if (!signer) fail("the signer's certificate is not included");
  const oid = tstInfo.messageImprint.hashAlgorithm.algorithmId;
  return {
    signedData,
    tstInfo,
    signer: signer!,
    contents: {
      genTime: tstInfo.genTime,
      imprint: {
        algorithm: Object.keys(DIGEST_OIDS).find((name) => DIGEST_OIDS[name] === oid) ?? oid,
        hash: new Uint8Array(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView),
      },
      signerCertificate: derOf(signer!),
      certificates: [signer!, ...certificates.filter((c) => c !== signer)].map(derOf),
    } satisfies TimestampTokenContents,
  };
}

// A SignerIdentifier is either issuer and serial number or a subject key identifier ([0]).
function names(sid: pkijs.SignerInfo['sid'], certificate: pkijs.Certificate): boolean {
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return (
      sid.issuer.isEqual(certificate.issuer) && sid.serialNumber.isEqual(certificate.serialNumber)
    );
  }
  const keyId = certificate.extensions?.find((extension) => extension.extnID === '2.5.29.14');
  const sidBytes = Buffer.from((sid as asn1js.OctetString).valueBlock?.valueHexView ?? []);
  if (!keyId || sidBytes.length === 0) return false;
  const inner = asn1js.fromBER(keyId.extnValue.valueBlock.valueHexView);
  const value = inner.result as asn1js.OctetString;
  return sidBytes.equals(Buffer.from(value.valueBlock.valueHexView));
}

function derOf(certificate: pkijs.Certificate): Uint8Array {
  return new Uint8Array(certificate.toSchema().toBER(false));
}
