import { createHash } from 'node:crypto';
import type { Db } from '../../db/handle.js';
import type { SealCertificate } from './seal-certificate.js';
import { describeActiveContent } from './active-content.js';
import { checkEvidence } from './evidence.js';
import { verifyPdfFile, type VerifyOptions, type VerifyResult } from './verify-pdf.js';
import { findSignedDocumentIdByHash } from '../documents/documents.repo.js';
import { findCertificateDocumentId } from './issued-certificates.repo.js';

/**
 * Verifies a PDF against our seal certificate and, when the database is at hand, whether its
 * hash is a document this service sealed ("hash known").
 */
export async function verifyDocument(
  deps: {
    db: Db | null;
    certificate: () => Promise<SealCertificate>;
    /**
     * Where the file's signatures are checked: a worker thread for the HTTP route, which may
     * take the bytes, and then answers their SHA-256 too.
     */
    check?: (
      bytes: Uint8Array,
      options: VerifyOptions,
    ) => Promise<VerifyResult & { sha256?: string }>;
  },
  bytes: Uint8Array,
) {
  const certificate = await deps.certificate();
  const options = { certificateFingerprints: [certificate.fingerprint] };
  const result: VerifyResult & { sha256?: string } = await (deps.check ?? verifyPdfFile)(
    bytes,
    options,
  );
  // A thread that took the bytes hashed them there.
  const hash = result.sha256 ?? createHash('sha256').update(bytes).digest('hex');
  // A sealed document's file, or an audit certificate made alone (audit-certificate.service.ts).
  const knownId = deps.db
    ? ((await findSignedDocumentIdByHash(deps.db.kysely, hash)) ??
      (await findCertificateDocumentId(deps.db.kysely, hash)))
    : undefined;
  const activeContent = result.activeContent ?? null;
  // The seal vouches for the bytes, not for what a viewer would run: say so beside it.
  const warning = activeContent?.length
    ? ` It contains ${describeActiveContent(activeContent)}, which a viewer may run or open; the seal does not vouch for them.`
    : '';
  // What the file itself says, whether or not this service knows it.
  const file = { level: result.level, signatures: result.signatures, dss: result.dss };
  if (result.status === 'sealed' && deps.db && !knownId) {
    return {
      status: 'unknown' as const,
      detail: `Validly sealed by this certificate, but not a document this service knows.${warning}`,
      signedAt: result.signedAt ?? null,
      documentId: null,
      activeContent,
      ...file,
    };
  }
  const detail =
    result.status === 'sealed'
      ? `Sealed by this service and unaltered since${result.coversWholeDocument ? '' : ': only validation data and document time stamps were added after the seal'}.`
      : result.status === 'altered'
        ? `Altered after sealing: ${result.detail}`
        : result.detail;
  return {
    status: result.status,
    detail: `${detail}${warning}`,
    signedAt: result.signedAt ?? null,
    documentId: knownId ?? null,
    activeContent,
    ...file,
  };
}

/**
 * verifyDocument, and the evidence file's check against the same seal certificate (evidence.ts
 * checkEvidence): `signet verify --evidence`.
 */
export async function verifyDocumentEvidence(
  deps: Parameters<typeof verifyDocument>[0],
  bytes: Uint8Array,
) {
  const document = await verifyDocument(deps, bytes);
  const { fingerprint } = await deps.certificate();
  return { document, evidence: checkEvidence(bytes, [fingerprint]) };
}
