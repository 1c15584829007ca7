import { PDF } from '@libpdf/core';
import { format, formatDateTime, messages } from '../../i18n/index.js';
import { signPdf } from './pades-signature.js';
import { drawSandboxMark } from './sandbox-mark.js';
import type { SealCertificate } from './seal-certificate.js';
import { embedSealFonts } from './seal-fonts.js';
import { addAuditPages, type PageSize } from './seal-pages.js';
import { SIGNATURE_RESERVE_BYTES } from './seal-levels.js';
import { SEAL_FIELD_NAME, signerFor } from './seal-pdf.js';
import type { SealAuditEntry, SealField } from './seal-types.js';

const A4: PageSize = { width: 595.28, height: 841.89 };

/** What the audit certificate of a document, alone, is made from (gathered by the service). */
export type AuditCertificateInput = {
  documentId: string;
  documentName: string;
  /** The document's language (`emailLanguage`): the certificate speaks it. */
  language: string;
  /** Any status but `draft`. */
  status: 'in_process' | 'pending_seal' | 'seal_failed' | 'signed' | 'declined' | 'cancelled';
  originalSha256: string;
  /** The trail as of now, oldest first, actors named. */
  auditEntries: SealAuditEntry[];
  fields: SealField[];
  /** The sealed file, once the document is `signed`. */
  sealed: {
    /** ISO 8601 time of the `sealed` audit entry. */
    at: string | null;
    sha256: string;
    mode: string | null;
    /** The PAdES level the seal reached (decisions §14); null for seals made before it was recorded. */
    level: string | null;
  } | null;
  sandbox: boolean;
  certificate: SealCertificate;
  /** The time written on the certificate and into its signature; defaults to now. */
  madeAt?: Date;
};

/**
 * The audit certificate of a document as a PDF of its own: the pages the seal appends
 * (addAuditPages, the same code and fonts), the facts of the document's seal when it has one,
 * sealed with a PAdES signature by the seal certificate, as the sealed file is. No time stamp:
 * a download does not wait for a time-stamp authority (docs/documents.md).
 */
export async function buildAuditCertificate(input: AuditCertificateInput): Promise<Uint8Array> {
  const madeAt = input.madeAt ?? new Date();
  const language = input.language;
  const m = messages(language).seal;
  const pdf = PDF.create();
  const fonts = embedSealFonts(pdf);
  const more: Array<{ label: string; value: string; mono?: boolean }> = [
    { label: m.documentStatus, value: m.statuses[input.status] },
  ];
  if (input.sealed) {
    const { at, sha256, mode, level } = input.sealed;
    if (at) more.push({ label: m.documentSealed, value: formatDateTime(at, language) });
    more.push({ label: m.sealedSha256, value: sha256, mono: true });
    if (mode) more.push({ label: m.sealModeLabel, value: mode });
    if (level) more.push({ label: m.sealLevel, value: level });
  }
  addAuditPages(
    {
      pdf,
      fonts,
      size: A4,
      documentName: input.documentName,
      documentId: input.documentId,
      language,
      decorate: (page, canvas) => {
        if (input.sandbox) drawSandboxMark(pdf, page, canvas);
      },
    },
    {
      originalSha256: input.originalSha256,
      sealedAt: madeAt,
      sealSubject: input.certificate.subject,
      sealFingerprint: input.certificate.fingerprint,
      // What the seal removed from the original is on the sealed file's own certificate.
      removedActiveContent: [],
      sealMode: format(m.certificateAlone, {
        time: formatDateTime(madeAt.toISOString(), language),
      }),
      more,
    },
    input.auditEntries,
    input.fields,
  );
  fonts.finish();
  pdf.fonts.finalize(true);
  pdf.setTitle(`${m.auditCertificate}: ${input.documentName}`);
  const reason = input.sandbox
    ? 'Audit certificate, sealed by Signet in the sandbox; not legally binding'
    : 'Audit certificate, sealed by Signet';
  return signPdf(pdf, {
    signer: await signerFor(input.certificate),
    fieldName: SEAL_FIELD_NAME,
    reason: `${reason}; document ${input.documentId}`,
    signingTime: madeAt,
    reservedBytes: SIGNATURE_RESERVE_BYTES,
  });
}
