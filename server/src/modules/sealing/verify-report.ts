import type { verifyDocument } from './verify-document.js';
import type { SignatureReport } from './verify-levels.js';

type Verification = Awaited<ReturnType<typeof verifyDocument>>;

/** `signet verify`'s text: the verdict, then the level, each signature and the DSS. */
export function describeVerification(result: Verification): string {
  const lines = [`${result.status}: ${result.detail}`];
  if (result.documentId) lines.push(`document ${result.documentId}`);
  if (result.signedAt) lines.push(`sealed at ${result.signedAt}`);
  if (result.level) lines.push(`level ${result.level}`);
  result.signatures.forEach((signature, i) => lines.push(describeSignature(signature, i + 1)));
  const { dss } = result;
  if (dss.present) {
    const chains = dss.coversChains
      ? "covers the seal's chains"
      : "does not cover the seal's chains";
    lines.push(
      `dss: ${dss.certificates} certificates, ${dss.ocsps} OCSP responses, ${dss.crls} CRLs; ${chains}`,
    );
  }
  if (result.activeContent?.length)
    lines.push(`active content: ${result.activeContent.join(', ')}`);
  return lines.join('\n');
}

// "signature 1 "Signet seal" (ours): valid, signed at …, time-stamped at …, covers the whole file".
function describeSignature(s: SignatureReport, n: number): string {
  const what = s.kind === 'document_timestamp' ? 'document time stamp' : 'signature';
  const name = s.fieldName === null ? '' : ` "${s.fieldName}"`;
  const facts = [
    s.valid ? 'valid' : 'INVALID',
    ...(s.signer ? [`by ${s.signer}`] : []),
    ...(s.signedAt ? [`signed at ${s.signedAt}`] : []),
    ...(s.timestampedAt && s.kind === 'signature' ? [`time-stamped at ${s.timestampedAt}`] : []),
    s.coversWholeFile
      ? 'covers the whole file'
      : s.coversRevision
        ? 'covers its revision, not what follows it'
        : 'covers no whole revision',
  ];
  return `${what} ${n}${name}${s.ours ? ' (ours)' : ''}: ${facts.join(', ')}`;
}
