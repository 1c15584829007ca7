import type { PDF } from '@libpdf/core';
import { findActiveContent, scanActiveContent, type ActiveContentKind } from './active-content.js';
import { findSignatureSlots, looksLikePdf } from './find-signatures.js';
import { examineSlot, type Examined } from './verify-cms.js';
import {
  assessLevel,
  reportDss,
  reportSignatures,
  vouchedFiles,
  NO_DSS,
  type DssReport,
  type SealLevel,
  type SignatureReport,
} from './verify-levels.js';
import { compareWithSigned, loadRevision } from './verify-updates.js';

export type { DssReport, SealLevel, SignatureReport } from './verify-levels.js';

export type VerifyStatus = 'sealed' | 'altered' | 'unknown';

export type VerifyResult = {
  /**
   * `sealed`: signed by one of our seal certificates and untouched since: the seal's byte range
   * covers the whole file, or what follows it only adds validation data (a DSS) and document
   * time stamps, changing nothing a viewer shows.
   * `altered`: one of our seals is present but the bytes no longer match it.
   * `unknown`: not a PDF, not signed, or signed by someone else.
   */
  status: VerifyStatus;
  /** One sentence for humans explaining the status. */
  detail: string;
  /**
   * The seal's time (ISO 8601): its signature time stamp's when it carries a valid one, else
   * the time it claims (/M); absent when the seal's digest does not match the file.
   */
  signedAt?: string;
  /**
   * True when the examined signature's byte ranges cover the whole file. A B-LT or B-LTA seal
   * is `sealed` with this false: its validation data and document time stamps come after it
   * (see `signatures`, whose last entry then covers the whole file).
   */
  coversWholeDocument: boolean;
  /** SHA-256 fingerprint of the examined signature's certificate. */
  signerFingerprint?: string;
  /** What a viewer would run or open unasked; null when the file could not be examined. */
  activeContent?: ActiveContentKind[] | null;
  /** The sealed file's PAdES baseline level, from the file itself; null unless `sealed`. */
  level: SealLevel | null;
  /** Every signature and document time stamp in the file, in the order they were written. */
  signatures: SignatureReport[];
  /** The document security store (validation data) the file carries. */
  dss: DssReport;
};

export type VerifyOptions = {
  /** SHA-256 fingerprints (hex, any case, colons allowed) of seal certificates we issued. */
  certificateFingerprints: string[];
};

/** verifySealedPdf, and the active content the file reaches but for the seal's own files. */
export async function verifyPdfFile(
  bytes: Uint8Array,
  options: VerifyOptions,
): Promise<VerifyResult> {
  const { result, vouched, current } = await examineFile(bytes, options);
  // The document the signatures were read from, parsed once for both.
  const activeContent = !looksLikePdf(bytes)
    ? null
    : current
      ? scanOrNull(current, bytes, vouched)
      : await findActiveContent(bytes, vouched);
  return { ...result, activeContent };
}

function scanOrNull(pdf: PDF, bytes: Uint8Array, vouched: Set<string> | undefined) {
  try {
    return scanActiveContent(pdf, { strip: false, bytes, vouched });
  } catch {
    return null;
  }
}

/** Says whether `bytes` is a PDF sealed by one of our certificates and unmodified since. */
export async function verifySealedPdf(
  bytes: Uint8Array,
  options: VerifyOptions,
): Promise<VerifyResult> {
  return (await examineFile(bytes, options)).result;
}

const NOTHING = { level: null, signatures: [], dss: NO_DSS };

async function examineFile(
  bytes: Uint8Array,
  options: VerifyOptions,
): Promise<{ result: VerifyResult; vouched?: Set<string>; current?: PDF }> {
  if (!looksLikePdf(bytes)) {
    const result = {
      status: 'unknown',
      detail: 'The file is not a PDF.',
      coversWholeDocument: false,
    };
    return { result: { ...result, ...NOTHING } as VerifyResult };
  }
  const slots = findSignatureSlots(bytes);
  if (slots.length === 0) {
    const detail = 'The PDF carries no digital signature.';
    return { result: { status: 'unknown', detail, coversWholeDocument: false, ...NOTHING } };
  }
  const current = await loadRevision(bytes, bytes.length);
  const dss = reportDss(current, undefined);
  const ours = new Set(options.certificateFingerprints.map(normalizeFingerprint));
  const all = slots.map((slot) => ({ slot, examined: examineSlot(bytes, slot) }));
  const signatures = reportSignatures(all, ours, current);
  const examined = all.map((e) => e.examined).filter((e) => e !== undefined);
  const sealed = examined.filter((e) => e.kind === 'signature' && ours.has(e.fingerprint));
  const base = { level: null, signatures, dss };
  const answer = (result: VerifyResult, vouched?: Set<string>) => ({ result, vouched, current });
  if (sealed.length === 0) {
    const last = examined.at(-1);
    const detail =
      examined.length === 0
        ? 'The PDF has a signature whose data cannot be read.'
        : 'The PDF is signed, but not by a seal certificate of this service.';
    return answer({
      ...base,
      status: 'unknown',
      detail,
      coversWholeDocument: last?.slot.coversWholeFile ?? false,
      signerFingerprint: last?.fingerprint,
    });
  }
  // The last intact seal of ours is the one that vouches for the file: it must cover it whole,
  // or be followed only by validation data and document time stamps.
  const intact = sealed.filter((e) => e.digestMatches && e.signatureValid && e.slot.inBounds);
  const seal = intact.at(-1);
  const signedRevision =
    seal && !seal.slot.coversWholeFile && seal.slot.endsRevision
      ? await loadRevision(bytes, seal.slot.end)
      : undefined;
  const updates =
    signedRevision && current ? compareWithSigned(signedRevision, current) : undefined;
  if (seal && (seal.slot.coversWholeFile || updates?.onlyValidationData)) {
    if (seal.slot.subFilter !== 'ETSI.CAdES.detached') {
      const format = seal.slot.subFilter ?? 'an unknown format';
      const detail = `Signed by our certificate, but as ${format}, not a PAdES seal.`;
      return answer({ ...base, ...summary(seal), status: 'unknown', detail });
    }
    const level = await assessLevel(bytes, { seal, examined, updates, current });
    const after = seal.slot.coversWholeFile
      ? ''
      : ', followed only by validation data and document time stamps';
    const stamp = seal.timestamp?.valid ? ' (with a valid RFC 3161 timestamp)' : '';
    const vouched = await vouchedFiles(bytes, seal, signedRevision ?? current);
    return answer(
      {
        ...base,
        ...summary(seal),
        level: level.level,
        dss: reportDss(current, level.chains),
        status: 'sealed',
        detail: `Sealed by this service and unmodified since${stamp}${after}.`,
      },
      vouched,
    );
  }
  // The last seal is the one that should cover the final bytes; explain why it does not.
  const last = sealed[sealed.length - 1];
  return answer({
    ...base,
    ...summary(last),
    status: 'altered',
    detail: explainAltered(bytes, last),
  });
}

function summary(e: Examined) {
  const stamped = e.timestamp?.valid ? e.timestamp.time : undefined;
  return {
    // A signature that is not for these bytes says nothing of when they were signed.
    signedAt: e.digestMatches ? (stamped ?? e.slot.claimedTime) : undefined,
    coversWholeDocument: e.slot.coversWholeFile,
    signerFingerprint: e.fingerprint,
  };
}

function explainAltered(bytes: Uint8Array, e: Examined): string {
  if (!e.slot.inBounds) {
    return `The file is truncated: the seal signs bytes up to ${e.slot.end}, but the file has ${bytes.length}.`;
  }
  if (!e.signatureValid) return "The seal's signature data was modified and no longer verifies.";
  if (!e.digestMatches) {
    return "The seal's signature is not for these bytes (digest mismatch): they were modified after sealing, or the signature was copied from another document.";
  }
  const extra = bytes.length - e.slot.end;
  return `${extra} bytes were added after the seal (the document was changed after sealing).`;
}

function normalizeFingerprint(fingerprint: string): string {
  return fingerprint.replace(/[^0-9a-fA-F]/g, '').toLowerCase();
}
