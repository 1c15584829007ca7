import { describeEvidence } from './evidence.js';
import { verifyDocumentEvidence } from './verify-document.js';

/**
 * Exit codes of `signet verify --evidence`: 0 sealed and its evidence intact, 2 altered (the
 * file, or the signature over its evidence), 3 unknown (not sealed by us, or no evidence file),
 * 4 the evidence is sealed but its audit chain is broken or it is not in the documented format.
 */
export const EVIDENCE_EXIT_CODES = { ok: 0, altered: 2, unknown: 3, broken: 4 } as const;

/** Verifies a PDF and its evidence, prints the result (text or JSON), returns the exit code. */
export async function printEvidenceCheck(
  deps: Parameters<typeof verifyDocumentEvidence>[0],
  bytes: Uint8Array,
  options: { json: boolean },
): Promise<number> {
  const { document, evidence } = await verifyDocumentEvidence(deps, bytes);
  const code =
    document.status === 'altered' || evidence.status === 'altered'
      ? EVIDENCE_EXIT_CODES.altered
      : evidence.status === 'no_evidence' || evidence.status === 'untrusted'
        ? EVIDENCE_EXIT_CODES.unknown
        : evidence.status === 'broken_chain' || evidence.schemaProblems
          ? EVIDENCE_EXIT_CODES.broken
          : document.status === 'sealed'
            ? EVIDENCE_EXIT_CODES.ok
            : EVIDENCE_EXIT_CODES.unknown;
  if (options.json) {
    const { evidenceBytes: _bytes, ...rest } = evidence;
    console.log(JSON.stringify({ exitCode: code, ...document, evidence: rest }, null, 2));
    return code;
  }
  console.log(`${document.status}: ${document.detail}`);
  if (document.documentId) console.log(`document ${document.documentId}`);
  if (document.signedAt) console.log(`sealed at ${document.signedAt}`);
  for (const line of describeEvidence(evidence)) console.log(line);
  return code;
}
