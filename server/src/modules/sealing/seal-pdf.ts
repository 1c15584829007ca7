import { createHash } from 'node:crypto';
import { HttpTimestampAuthority, P12Signer, PDF, type PDFPage } from '@libpdf/core';
import { drawSandboxMark, readPageGeometry } from './sandbox-mark.js';
import type { SealCertificate } from './seal-certificate.js';
import { embedSealFonts } from './seal-fonts.js';
import { addAuditPages, addSignaturePages, type PageSize } from './seal-pages.js';
import type { SealPdfInput } from './seal-types.js';

export type { SealAuditEntry, SealPdfInput, SealSignature } from './seal-types.js';

/** Name of the signature field that holds the seal. */
export const SEAL_FIELD_NAME = 'Signet seal';
const A4: PageSize = { width: 595.28, height: 841.89 };
const LETTER: PageSize = { width: 612, height: 792 };
// Room for the CMS: a seal certificate with a few intermediates; a TSA token adds its
// own certificate chain. Unused room is zero padding, twice its size in hex.
const SIGNATURE_RESERVE_BYTES = 12_288;
const TIMESTAMPED_RESERVE_BYTES = 24_576;
const TSA_TIMEOUT_MS = 15_000;

const signers = new WeakMap<SealCertificate, Promise<P12Signer>>();

/**
 * Returns the original pages (sandbox-marked if `sandbox`) followed by a signature page
 * and an audit certificate, sealed with a PAdES (ETSI.CAdES.detached) signature.
 */
export async function sealPdf(input: SealPdfInput): Promise<Uint8Array> {
  const sealedAt = input.sealedAt ?? new Date();
  // The hash is printed on a legal certificate: a storage mix-up must fail, not be sealed.
  const actualSha256 = createHash('sha256').update(input.original).digest('hex');
  if (actualSha256 !== input.originalSha256.toLowerCase()) {
    throw new Error(`originalSha256 does not match the original (got ${actualSha256})`);
  }
  const pdf = await PDF.load(input.original);
  const originalPages = pdf.getPages();
  if (originalPages.length === 0) throw new Error('Cannot seal a PDF without pages');

  if (input.sandbox) for (const page of originalPages) drawSandboxMark(pdf, page);

  const ctx = {
    pdf,
    fonts: embedSealFonts(pdf),
    size: appendixPageSize(pdf, originalPages[0]),
    documentName: input.documentName,
    documentId: input.documentId,
    decorate: (page: PDFPage) => {
      if (input.sandbox) drawSandboxMark(pdf, page);
    },
  };
  addSignaturePages(ctx, input.signatures);
  addAuditPages(
    ctx,
    {
      originalSha256: input.originalSha256,
      sealedAt,
      sealSubject: input.certificate.subject,
      sealFingerprint: input.certificate.fingerprint,
    },
    input.auditEntries,
  );
  // sign() saves without subsetting; finalizing first keeps only the glyphs drawn
  // (tens of kB instead of ~1.5 MB of font programs per sealed file).
  pdf.fonts.finalize(true);

  const { bytes } = await pdf.sign({
    signer: await signerFor(input.certificate),
    fieldName: freeFieldName(pdf),
    subFilter: 'ETSI.CAdES.detached',
    level: input.tsaUrl ? 'B-T' : 'B-B',
    timestampAuthority: input.tsaUrl
      ? new HttpTimestampAuthority(input.tsaUrl, { timeout: TSA_TIMEOUT_MS })
      : undefined,
    reason: input.sandbox
      ? 'Sealed by Signet (sandbox, not legally binding)'
      : 'Sealed by Signet after all signatures were collected',
    signingTime: sealedAt,
    estimatedSize: input.tsaUrl ? TIMESTAMPED_RESERVE_BYTES : SIGNATURE_RESERVE_BYTES,
  });
  return bytes;
}

// Parsing a P12 costs ~100 ms (key derivation); a process seals with one certificate.
function signerFor(certificate: SealCertificate): Promise<P12Signer> {
  let signer = signers.get(certificate);
  if (!signer) {
    signer = P12Signer.create(certificate.p12, certificate.password);
    signers.set(certificate, signer);
    signer.catch(() => signers.delete(certificate));
  }
  return signer;
}

// An explicit, unused name: without one @libpdf/core would reuse the first empty signature
// field of the original, hiding a field its author placed for someone else.
function freeFieldName(pdf: PDF): string {
  const taken = new Set((pdf.getForm()?.getFields() ?? []).map((field) => field.name));
  let name = SEAL_FIELD_NAME;
  for (let n = 2; taken.has(name); n++) name = `${SEAL_FIELD_NAME} ${n}`;
  return name;
}

// Letter-sized originals get Letter appendix pages, everything else A4, always portrait.
function appendixPageSize(pdf: PDF, first: PDFPage): PageSize {
  const { visualWidth, visualHeight } = readPageGeometry(pdf, first);
  const isLetter = Math.abs(visualWidth - 612) < 3 && Math.abs(visualHeight - 792) < 3;
  return isLetter ? LETTER : A4;
}
