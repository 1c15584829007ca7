// Standalone verifier of a Signet evidence file (docs/evidence.md): needs the sealed PDF only,
// nothing from the service, and node:crypto and node:zlib from Node.
import { checkCmsSignature, type CmsCheck } from './cms-signature.js';
import { checkChain, type ChainCheck } from './evidence-chain.js';
import { findEvidence, findPdfSignatures } from './pdf-evidence.js';

/** The `format.name` of a Signet evidence file. */
export const EVIDENCE_FORMAT_NAME = 'signet-evidence';
/** The version of the format this verifier reads. */
export const EVIDENCE_FORMAT_VERSION = 1;

/**
 * - `valid`: the evidence is inside the byte range of a signature that verifies (by a trusted
 *   certificate, when `trustedFingerprints` is given), and its chain holds. Later revisions
 *   may follow that signature (`laterRevisionBytes`): a B-LT or B-LTA seal's validation data
 *   and archive time stamp do. They cannot change the evidence, which the signature covers;
 *   whether they change what the pages show is `signet verify`'s or a PAdES validator's to say;
 * - `altered`: the signature covering the evidence does not verify;
 * - `untrusted`: it verifies, but its certificate is not one of `trustedFingerprints`;
 * - `broken_chain`: sealed as it is, but its audit chain does not hold (`chain` says where);
 * - `no_evidence`: no signed revision of the file embeds an evidence file.
 */
export type EvidenceStatus = 'valid' | 'altered' | 'untrusted' | 'broken_chain' | 'no_evidence';

/** The evidence as parsed JSON; its fields are documented in docs/evidence.md. */
export type EvidenceDocument = {
  format: { name: string; version: number };
  document: { id: string; name: string; language: string; originalSha256: string };
  seal: { sealedAt: string; mode: string; sandbox: boolean; certificate: Record<string, string> };
  signees: Array<Record<string, unknown>>;
  fields: Array<Record<string, unknown>>;
  auditTrail: { entries: Array<{ prev: string } & Record<string, unknown>>; head: string };
};

export type EvidenceVerification = {
  status: EvidenceStatus;
  /** One sentence for people. */
  detail: string;
  evidence?: EvidenceDocument;
  /** The evidence file exactly as embedded (its SHA-256 identifies it). */
  evidenceBytes?: Uint8Array;
  chain?: ChainCheck;
  /** Bytes of later revisions after the signature over the evidence (0: it covers the file). */
  laterRevisionBytes?: number;
  /** The signature whose revision embeds the evidence. */
  signature?: CmsCheck & {
    byteRange: [number, number, number, number];
    coversWholeFile: boolean;
    /** The evidence stream lies inside the signed byte ranges. */
    coversEvidence: boolean;
  };
};

/**
 * Reads the evidence file out of a sealed PDF and checks it: the signature of the revision that
 * embeds it (messageDigest against the SHA-256 of the byte ranges, the signature over the signed
 * attributes with the certificate in the CMS), that its byte ranges hold the evidence and the
 * whole file, and the audit trail's hash chain.
 */
export function verifyEvidence(
  pdf: Uint8Array,
  options: {
    /** SHA-256 fingerprints (hex; colons and case ignored) of the seal certificates to accept. */
    trustedFingerprints?: string[];
  } = {},
): EvidenceVerification {
  const found = findEvidence(pdf, EVIDENCE_FORMAT_NAME);
  if (!found) {
    const signed = findPdfSignatures(pdf).length > 0;
    return {
      status: 'no_evidence',
      detail: signed
        ? 'No signed revision of this PDF embeds a Signet evidence file.'
        : 'This PDF carries no signature, so no sealed evidence file.',
    };
  }
  const evidence = JSON.parse(Buffer.from(found.bytes).toString('utf8')) as EvidenceDocument;
  const [start1, length1, start2, length2] = found.signature.byteRange;
  const cms = checkCmsSignature(found.signature.cms, [
    pdf.subarray(start1, start1 + length1),
    pdf.subarray(start2, start2 + length2),
  ]);
  const inRange = (from: number, to: number) =>
    (from >= start1 && to <= start1 + length1) || (from >= start2 && to <= start2 + length2);
  const signature = {
    ...cms,
    byteRange: found.signature.byteRange,
    coversWholeFile: found.signature.coversWholeFile,
    coversEvidence: inRange(found.offset, found.end),
  };
  const chain = chainOf(evidence);
  const base = { evidence, evidenceBytes: found.bytes, signature, chain };
  if (evidence.format.version !== EVIDENCE_FORMAT_VERSION) {
    return {
      ...base,
      status: 'no_evidence',
      detail: `The evidence file is version ${String(evidence.format.version)}; this verifier reads version ${EVIDENCE_FORMAT_VERSION}.`,
    };
  }
  if (!cms.signatureValid || !cms.digestMatches || !signature.coversEvidence) {
    return {
      ...base,
      status: 'altered',
      detail: cms.problem
        ? `The signature over the evidence cannot be checked: ${cms.problem}.`
        : !cms.signatureValid
          ? 'The signature over the evidence does not verify: its data was changed.'
          : !cms.digestMatches
            ? 'The signed bytes were changed after signing (digest mismatch).'
            : 'The evidence file lies outside the bytes its signature covers.',
    };
  }
  const later = pdf.length - (start2 + length2);
  const laterNote =
    later > 0
      ? ` ${later} bytes of later revisions follow the seal (a B-LT or B-LTA seal's validation data and archive time stamp, or changes): they cannot change the evidence; \`signet verify\` or a PAdES validator says whether they change the pages.`
      : '';
  const trusted = options.trustedFingerprints?.map(normalizeFingerprint);
  if (trusted && !trusted.includes(cms.signer?.fingerprintSha256 ?? '')) {
    return {
      ...base,
      status: 'untrusted',
      detail: `The evidence is validly signed, but by a certificate that is not trusted here (${cms.signer?.subject ?? 'unknown'}, SHA-256 ${cms.signer?.fingerprintSha256 ?? '?'}).`,
    };
  }
  if (!chain.ok) {
    return {
      ...base,
      status: 'broken_chain',
      detail: `The audit chain is broken: ${chain.detail}.`,
    };
  }
  return {
    ...base,
    status: 'valid',
    laterRevisionBytes: later,
    detail: `The evidence is sealed by ${cms.signer?.subject ?? 'its signer'} and unaltered; its audit chain of ${chain.entries} entries holds.${laterNote}`,
  };
}

// A file without the trail's shape is a chain broken at its first link.
function chainOf(evidence: EvidenceDocument): ChainCheck {
  const trail = evidence?.auditTrail;
  if (!trail || !Array.isArray(trail.entries)) {
    return {
      ok: false,
      index: 0,
      expected: '',
      found: '',
      detail: 'the evidence has no audit trail',
    };
  }
  return checkChain(trail, String(evidence.document?.originalSha256));
}

function normalizeFingerprint(fingerprint: string): string {
  return fingerprint.replace(/[^0-9a-fA-F]/g, '').toLowerCase();
}
