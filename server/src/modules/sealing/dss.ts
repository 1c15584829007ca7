import { createHash } from 'node:crypto';
import { PDF, PdfArray, PdfDict, PdfName, PdfRef, PdfStream, PdfString } from '@libpdf/core';
import { pdfDate } from './pades-signature.js';
import { issuerOf } from './revocation-data.js';
import type { RevocationSource } from './revocation.js';

/** What a DSS holds for one signature or time-stamp token, keyed in /VRI by its SHA-1. */
export type ValidationEntry = {
  /** The /Contents bytes of a signature (padding included), or a time-stamp token. */
  signature: Uint8Array;
  certificates: Uint8Array[];
  ocsps: Uint8Array[];
  crls: Uint8Array[];
};

/**
 * The certificates of `chain` (in any order: each one's issuer is found among them) with
 * their revocation data from `source`: an OCSP response, else a CRL, for every certificate
 * but a self-signed one. What could not be had is in `source.failures`.
 */
export async function validationData(
  signature: Uint8Array,
  chain: Uint8Array[],
  source: RevocationSource,
): Promise<ValidationEntry> {
  const certificates = unique(chain);
  const entry: ValidationEntry = { signature, certificates, ocsps: [], crls: [] };
  for (const certificate of certificates) {
    const issuer = issuerOf(certificate, certificates);
    if (issuer === certificate) continue;
    const ocsp = issuer ? await source.getOCSP(certificate, issuer) : null;
    const crl = ocsp ? null : await source.getCRL(certificate);
    if (ocsp) entry.ocsps.push(ocsp);
    if (crl) entry.crls.push(crl);
  }
  return entry;
}

/**
 * `signed` with one incremental update that adds a DSS (PAdES B-LT, ETSI EN 319 142-1 §5.4):
 * /Certs, /OCSPs and /CRLs streams, each stored once, and a /VRI entry per signature or token.
 * A DSS the file already has (an original's) is kept and added to. Written here rather than
 * by @libpdf/core's addValidationData, which parses every CMS, certificate and response with
 * pkijs again on each seal: 40–70 ms of a 10-page seal, against about a millisecond for this.
 */
export async function appendDss(
  signed: Uint8Array,
  entries: ValidationEntry[],
): Promise<Uint8Array> {
  const pdf = await PDF.load(signed);
  const registry = pdf.context.registry;
  const resolve = registry.resolve.bind(registry);
  const catalog = pdf.getCatalog();
  const existing = catalog.getDict('DSS', resolve);
  const dss = PdfDict.of({ Type: PdfName.of('DSS') });
  const vri = existing?.getDict('VRI', resolve)?.clone() ?? new PdfDict();
  const streams = new Map<string, PdfRef>();
  const kept = (key: string) => new PdfArray([...(existing?.getArray(key, resolve) ?? [])]);
  const arrays = { Certs: kept('Certs'), OCSPs: kept('OCSPs'), CRLs: kept('CRLs') };
  const refsOf = (key: keyof typeof arrays, items: Uint8Array[]) =>
    items.map((bytes) => {
      const id = `${key} ${sha1(bytes)}`;
      let ref = streams.get(id);
      if (!ref) {
        ref = registry.register(new PdfStream(new PdfDict(), bytes));
        streams.set(id, ref);
        arrays[key].push(ref);
      }
      return ref;
    });
  for (const entry of entries) {
    const record = PdfDict.of({
      Cert: new PdfArray(refsOf('Certs', entry.certificates)),
      ...(entry.ocsps.length ? { OCSP: new PdfArray(refsOf('OCSPs', entry.ocsps)) } : {}),
      ...(entry.crls.length ? { CRL: new PdfArray(refsOf('CRLs', entry.crls)) } : {}),
    });
    record.set('TU', PdfString.fromString(pdfDate(new Date())));
    vri.set(sha1(entry.signature).toUpperCase(), record);
  }
  for (const [key, array] of Object.entries(arrays)) if (array.length > 0) dss.set(key, array);
  dss.set('VRI', vri);
  catalog.set('DSS', registry.register(dss));
  return pdf.save({ incremental: true });
}

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

function unique(certificates: Uint8Array[]): Uint8Array[] {
  const seen = new Map<string, Uint8Array>();
  for (const der of certificates) seen.set(sha1(der), der);
  return [...seen.values()];
}
