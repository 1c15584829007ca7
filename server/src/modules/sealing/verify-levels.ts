import { PdfArray, PdfDict, PdfRef, PdfString, type PDF, type PdfObject } from '@libpdf/core';
import type * as pkijs from 'pkijs';
import { revisionEnds, type SignatureSlot } from './find-signatures.js';
import {
  ATTACHED_ORIGINAL_NAME,
  ATTACHMENT_NAME_PREFIX,
  EVIDENCE_FILE_NAME,
  type SealLevel,
} from './seal-types.js';
import type { Examined } from './verify-cms.js';
import { chainOf, dssCoversChains, parseCertificates, readDss } from './verify-dss.js';
import { compareWithSigned, loadRevision, type UpdatesAfter } from './verify-updates.js';

export type { SealLevel } from './seal-types.js';

/** One signature or document time stamp, as found in the file. */
export type SignatureReport = {
  kind: 'signature' | 'document_timestamp';
  /** The signature field's full name; null when the file's form cannot be read. */
  fieldName: string | null;
  /** Made by one of this service's seal certificates. */
  ours: boolean;
  /** The signer's (or time-stamp authority's) distinguished name; null if unreadable. */
  signer: string | null;
  /**
   * When it was signed: a document time stamp's time; for our seal its signature time stamp's
   * time, else the time the dictionary claims (/M), as for others. Null when its digest does
   * not match these bytes (a signature copied from another file says nothing of them).
   */
  signedAt: string | null;
  /** The time of its valid RFC 3161 time stamp (a document time stamp's own), if any. */
  timestampedAt: string | null;
  /** Its digest matches the bytes it covers and its signature verifies. */
  valid: boolean;
  /** Its byte range covers the file from the start up to the end of a revision. */
  coversRevision: boolean;
  /** Its byte range covers the whole file. */
  coversWholeFile: boolean;
};

/** The document security store: counts, and whether it covers our seal's chains. */
export type DssReport = {
  present: boolean;
  certificates: number;
  ocsps: number;
  crls: number;
  /**
   * Every certificate of our seal's chain and of its time stamp's chain is in the DSS with
   * revocation data (OCSP or CRL), self-signed trust anchors excepted; false without our seal.
   */
  coversChains: boolean;
};

export const NO_DSS: DssReport = {
  present: false,
  certificates: 0,
  ocsps: 0,
  crls: 0,
  coversChains: false,
};

/** One report per slot, with the field names read from the file's form. */
export function reportSignatures(
  all: { slot: SignatureSlot; examined: Examined | undefined }[],
  ours: Set<string>,
  current: PDF | undefined,
): SignatureReport[] {
  const names = fieldNames(current);
  return all.map(({ slot, examined: e }) => {
    const valid = Boolean(e?.digestMatches && e.signatureValid);
    const stamped = e?.digestMatches && e.timestamp?.valid ? (e.timestamp.time ?? null) : null;
    const isOurs = e?.kind === 'signature' && ours.has(e.fingerprint);
    const kind = slot.subFilter === 'ETSI.RFC3161' ? 'document_timestamp' : 'signature';
    const claimed = e?.digestMatches ? (slot.claimedTime ?? null) : null;
    return {
      kind,
      fieldName: names.get(slot.byteRange.join(' ')) ?? null,
      ours: isOurs,
      signer: e?.subject || null,
      signedAt: kind === 'document_timestamp' || (isOurs && stamped) ? stamped : claimed,
      timestampedAt: stamped,
      valid,
      coversRevision: slot.inBounds && slot.endsRevision,
      coversWholeFile: slot.coversWholeFile,
    };
  });
}

/** The DSS of the file as it is; `chains` are our seal's, when it is sealed. */
export function reportDss(current: PDF | undefined, chains: pkijs.Certificate[][] | undefined) {
  const dss = readDss(current);
  if (!dss) return NO_DSS;
  return {
    present: true,
    certificates: dss.certificates.length,
    ocsps: dss.ocsps.length,
    crls: dss.crls.length,
    coversChains: chains !== undefined && dssCoversChains(dss, chains),
  };
}

/**
 * The level of an intact seal: B-T with a valid signature time stamp; B-LT when an update after
 * it added a DSS covering its chains; B-LTA when a valid document time stamp after that covers
 * the DSS and the whole file, or all of it but updates that only add validation data (those
 * for the time stamp itself, which a later time stamp would cover).
 */
export async function assessLevel(
  bytes: Uint8Array,
  input: {
    seal: Examined;
    examined: Examined[];
    updates: UpdatesAfter | undefined;
    current: PDF | undefined;
  },
): Promise<{ level: SealLevel; chains: pkijs.Certificate[][] }> {
  const { seal, current } = input;
  const dss = readDss(current);
  const pool = [...seal.certificates, ...parseCertificates(dss?.certificates ?? [])];
  const chains = [chainOf(seal.certificate, pool)];
  const token = seal.timestamp;
  if (token?.signer) chains.push(chainOf(token.signer, [...token.certificates, ...pool]));
  if (!token?.valid) return { level: 'B-B', chains };
  if (!input.updates?.dssChanged || !dss || !dssCoversChains(dss, chains)) {
    return { level: 'B-T', chains };
  }
  const stamp = input.examined
    .filter((e) => e.kind === 'document_timestamp' && e.slot.end > seal.slot.end)
    .sort((a, b) => a.slot.end - b.slot.end)
    .at(-1);
  const intact = stamp?.digestMatches && stamp.signatureValid && stamp.slot.endsRevision;
  if (!stamp || !intact || !current) return { level: 'B-LT', chains };
  const stamped = stamp.slot.coversWholeFile ? current : await loadRevision(bytes, stamp.slot.end);
  const stampedDss = readDss(stamped);
  if (!stamped || !stampedDss || !dssCoversChains(stampedDss, chains)) {
    return { level: 'B-LT', chains };
  }
  if (!stamp.slot.coversWholeFile) {
    const after = compareWithSigned(stamped, current);
    if (!after.onlyValidationData || after.timestampFields.length > 0) {
      return { level: 'B-LT', chains };
    }
  }
  return { level: 'B-LTA', chains };
}

// Signature fields by their signature's /ByteRange, with their full names.
function fieldNames(pdf: PDF | undefined): Map<string, string> {
  const names = new Map<string, string>();
  if (!pdf) return names;
  try {
    const resolve = (value: PdfObject | undefined) =>
      value instanceof PdfRef ? (pdf.getObject(value) ?? undefined) : value;
    const form = resolve(pdf.getCatalog().get('AcroForm'));
    const fields = form instanceof PdfDict ? resolve(form.get('Fields')) : undefined;
    if (!(fields instanceof PdfArray)) return names;
    const stack = fields.toArray().map((field) => ({ field, prefix: '' }));
    const seen = new Set<PdfObject>();
    while (stack.length > 0 && seen.size < 10_000) {
      const { field, prefix } = stack.pop()!;
      const dict = resolve(field);
      if (!(dict instanceof PdfDict) || seen.has(dict)) continue;
      seen.add(dict);
      const partial = dict.get('T');
      const name = partial instanceof PdfString ? partial.asString() : '';
      const full = prefix && name ? `${prefix}.${name}` : prefix || name;
      const value = resolve(dict.get('V'));
      const range = value instanceof PdfDict ? resolve(value.get('ByteRange')) : undefined;
      if (range instanceof PdfArray) {
        const key = range
          .toArray()
          .map((n) => String((n as { value?: unknown }).value))
          .join(' ');
        names.set(key, full);
      }
      const kids = resolve(dict.get('Kids'));
      if (kids instanceof PdfArray)
        for (const kid of kids.toArray()) stack.push({ field: kid, prefix: full });
    }
  } catch {
    // A form that cannot be read names no field.
  }
  return names;
}

/**
 * The file specifications an intact seal vouches for: the ones named ATTACHED_ORIGINAL_NAME or
 * EVIDENCE_FILE_NAME that its own revision added (absent from the revision before it), as
 * "num gen" keys. A file of those names that was there before the seal is someone else's.
 */
export async function vouchedFiles(
  bytes: Uint8Array,
  seal: Examined,
  sealed: PDF | undefined,
): Promise<Set<string> | undefined> {
  if (!sealed) return undefined;
  const ours = [ATTACHED_ORIGINAL_NAME, EVIDENCE_FILE_NAME];
  const gapStart = seal.slot.byteRange[1];
  const previousEnd = revisionEnds(bytes)
    .filter((end) => end <= gapStart)
    .at(-1);
  const previous = previousEnd ? await loadRevision(bytes, previousEnd) : undefined;
  if (previousEnd && !previous) return undefined;
  const before = previous ? embeddedFiles(previous) : new Map<string, string[]>();
  const vouched = new Set<string>();
  for (const [name, refs] of embeddedFiles(sealed)) {
    // Signees' attachments (seal-attachments.ts) are the seal's own too, when it added them.
    const mine = ours.includes(name) || name.startsWith(ATTACHMENT_NAME_PREFIX);
    if (mine && !before.has(name)) for (const ref of refs) vouched.add(ref);
  }
  return vouched;
}

// Embedded file specifications by file name: the /EmbeddedFiles name tree and the catalog's
// associated files (/AF), as "num gen" keys of the indirect ones.
function embeddedFiles(pdf: PDF): Map<string, string[]> {
  const files = new Map<string, string[]>();
  const resolve = (value: PdfObject | undefined) =>
    value instanceof PdfRef ? (pdf.getObject(value) ?? undefined) : value;
  const add = (value: PdfObject | undefined) => {
    const spec = resolve(value);
    if (!(value instanceof PdfRef) || !(spec instanceof PdfDict)) return;
    const name = spec.get('UF') ?? spec.get('F');
    if (!(name instanceof PdfString)) return;
    const list = files.get(name.asString()) ?? [];
    list.push(`${value.objectNumber} ${value.generation}`);
    files.set(name.asString(), list);
  };
  const catalog = pdf.getCatalog();
  const af = resolve(catalog.get('AF'));
  if (af instanceof PdfArray) for (const entry of af.toArray()) add(entry);
  const names = resolve(catalog.get('Names'));
  const tree = names instanceof PdfDict ? resolve(names.get('EmbeddedFiles')) : undefined;
  const stack = [tree];
  const seen = new Set<PdfObject>();
  while (stack.length > 0 && seen.size < 10_000) {
    const node = resolve(stack.pop());
    if (!(node instanceof PdfDict) || seen.has(node)) continue;
    seen.add(node);
    const leaves = resolve(node.get('Names'));
    if (leaves instanceof PdfArray) {
      const entries = leaves.toArray();
      for (let i = 1; i < entries.length; i += 2) add(entries[i]);
    }
    const kids = resolve(node.get('Kids'));
    if (kids instanceof PdfArray) for (const kid of kids.toArray()) stack.push(kid);
  }
  return files;
}
