import { createHash } from 'node:crypto';
import type { Db } from '../../db/handle.js';
import type { SealCertificate } from './seal-certificate.js';
import { verifySealedPdf, type VerifyOptions, type VerifyResult } from './verify-pdf.js';
import { findSignedDocumentIdByHash } from '../documents/documents.repo.js';

/**
 * Verifies a PDF against our seal certificate and, when the database is at hand, whether its
 * hash is a document this service sealed ("hash known").
 */
export async function verifyDocument(
  deps: {
    db: Db | null;
    certificate: () => Promise<SealCertificate>;
    /** Where the file's signatures are checked: a worker thread for the HTTP route. */
    check?: (bytes: Uint8Array, options: VerifyOptions) => Promise<VerifyResult>;
  },
  bytes: Uint8Array,
) {
  const certificate = await deps.certificate();
  const options = { certificateFingerprints: [certificate.fingerprint] };
  const result = deps.check ? await deps.check(bytes, options) : verifySealedPdf(bytes, options);
  const hash = createHash('sha256').update(bytes).digest('hex');
  const knownId = deps.db ? await findSignedDocumentIdByHash(deps.db.kysely, hash) : undefined;
  if (result.status === 'sealed' && deps.db && !knownId) {
    return {
      status: 'unknown' as const,
      detail: 'Validly sealed by this certificate, but not a document this service knows.',
      signedAt: result.signedAt ?? null,
      documentId: null,
    };
  }
  return {
    status: result.status,
    detail:
      result.status === 'sealed'
        ? 'Sealed by this service and unaltered since.'
        : result.status === 'altered'
          ? `Altered after sealing: ${result.detail}`
          : result.detail,
    signedAt: result.signedAt ?? null,
    documentId: knownId ?? null,
  };
}
