import { createHash } from 'node:crypto';
import type { Db } from '../../db/handle.js';
import { AppError } from '../../lib/errors.js';
import { nowIso } from '../../lib/ids.js';
import { listAudit } from '../documents/audit.repo.js';
import { pdfFilename } from '../documents/after-signing.js';
import * as repo from '../documents/documents.repo.js';
import { readableDocument } from '../documents/documents.service.js';
import type { Storage } from '../storage/storage.js';
import type { AuditCertificateInput } from './audit-certificate.js';
import type { SealCertificate } from './seal-certificate.js';
import { certificateEntries, sealFields } from './seal.job.js';
import { buildCertificateOffThread } from './seal-worker.js';
import { recordIssuedCertificate } from './issued-certificates.repo.js';

/** What making an audit certificate needs. */
export type AuditCertificateDeps = {
  db: Db;
  storage: Storage;
  sandbox: boolean;
  certificate: () => Promise<SealCertificate>;
};

/** Certificates being made or waiting for the sealing thread, by this process. */
let inFlight = 0;
/**
 * At most this many at once: they wait in the sealing thread's queue, and a seal queued after
 * them waits for them all. Beyond it, 429 with Retry-After.
 */
export const CERTIFICATES_IN_FLIGHT = 4;

// Marks a drawn signature or initials without copying its image to the sealing thread: the
// certificate only says "drawn", it does not draw it.
const DRAWN = new Uint8Array(1);

/**
 * The audit certificate of a document the caller may read, alone, as a sealed PDF: the trail
 * as of now from the database, in the document's language (docs/documents.md). 404 for a
 * document of another tenant; 409 `document_not_sent` for a draft, which has nothing to certify.
 */
export async function makeAuditCertificate(
  deps: AuditCertificateDeps,
  input: { documentId: string; userId: string },
): Promise<{ bytes: Uint8Array; filename: string }> {
  const document = await readableDocument(deps.db, input);
  if (document.status === 'draft') {
    throw new AppError(
      'document_not_sent',
      'A draft has no audit certificate: send it for signing first.',
    );
  }
  if (inFlight >= CERTIFICATES_IN_FLIGHT) {
    throw new AppError('rate_limited', 'Too many audit certificates are being made; try again.', {
      headers: { 'retry-after': '1' },
    });
  }
  inFlight++;
  try {
    const signees = await repo.listSignees(deps.db.kysely, document.id);
    const [trail, fields, certificate] = await Promise.all([
      listAudit(deps.db.kysely, document.id),
      sealFields(deps, document, signees),
      deps.certificate(),
    ]);
    const sealedEntry = trail.findLast((entry) => entry.action === 'sealed');
    const signed = document.status === 'signed' && document.hash !== null;
    const certificateInput: AuditCertificateInput = {
      documentId: document.id,
      documentName: document.name,
      language: document.email_language,
      status: document.status,
      originalSha256: document.original_sha256,
      auditEntries: certificateEntries(trail, signees),
      fields: fields.map((f) => (f.mark?.image ? { ...f, mark: { ...f.mark, image: DRAWN } } : f)),
      sealed: signed
        ? {
            at: sealedEntry?.createdAt ?? null,
            sha256: document.hash!,
            mode: document.seal_mode,
            level: document.seal_level,
          }
        : null,
      sandbox: deps.sandbox,
      certificate,
    };
    const bytes = await buildCertificateOffThread(certificateInput);
    // Verifying it (POST /api/verify, `signet verify`) then answers `sealed` with its document.
    await recordIssuedCertificate(deps.db.kysely, {
      sha256: createHash('sha256').update(bytes).digest('hex'),
      documentId: document.id,
      tenantId: document.tenant_id,
      at: nowIso(),
    });
    return { bytes, filename: certificateFilename(document) };
  } finally {
    inFlight--;
  }
}

/** `contract.pdf` → `contract-audit-certificate.pdf`, built like the signed copy's name. */
export function certificateFilename(document: Pick<repo.DocumentRow, 'original_file'>): string {
  return pdfFilename(document.original_file).replace(/\.pdf$/i, '-audit-certificate.pdf');
}
