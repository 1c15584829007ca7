import { KeyObject, createHash, sign as signSync } from 'node:crypto';
import { P12Signer, PDF, type PDFPage, type Signer } from '@libpdf/core';
import {
  describeActiveContent,
  hasXfaForm,
  scanActiveContent,
  type ActiveContentKind,
} from './active-content.js';
import { dropSignatures } from './drop-signatures.js';
import { carriesSignatures } from './find-signatures.js';
import { pageCanvas, type PageCanvas } from './page-canvas.js';
import './native-deflate.js';
import { readPageGeometry } from './page-geometry.js';
import { buildEvidence, embedEvidence } from './evidence.js';
import { attachmentFacts, embedAttachments } from './seal-attachments.js';
import { drawSandboxMark } from './sandbox-mark.js';
import type { SealCertificate } from './seal-certificate.js';
import { drawFieldValues } from './seal-fields.js';
import { embedSealFonts, type SealFonts } from './seal-fonts.js';
import { addAuditPages, addSignaturePages, type PageSize } from './seal-pages.js';
import { LevelShortfall, signAtLevel, type LevelChoice } from './seal-levels.js';
import { ATTACHED_ORIGINAL_NAME, type SealLevel, type SealPdfInput } from './seal-types.js';

export type { SealAuditEntry, SealPdfInput, SealSignature } from './seal-types.js';
export { ATTACHED_ORIGINAL_NAME } from './seal-types.js';

/** Name of the signature field that holds the seal. */
export const SEAL_FIELD_NAME = 'Signet seal';
const A4: PageSize = { width: 595.28, height: 841.89 };
const LETTER: PageSize = { width: 612, height: 792 };

// By fingerprint: a sealing thread receives a copy of the certificate with every document.
const signers = new Map<string, Promise<Signer>>();

/**
 * How a sealed file was made (public as the document's `sealMode`):
 * - `normalised`: the original (it carried no signatures) rewritten as one clean section,
 *   damaged or hybrid cross-references repaired and permissions-only encryption removed, with
 *   values and marks drawn on its pages; the seal is an incremental update of that;
 * - `incremental`: the original carried signatures, so it is kept byte for byte and the
 *   signature and audit pages and the seal are appended after it, nothing drawn into its pages:
 *   every earlier signature stays valid;
 * - `attached`: the original could not be modified; it is attached unchanged to a new PDF of
 *   signature and audit pages.
 */
export type SealMode = 'normalised' | 'incremental' | 'attached';

/** A sealed file, how it was made and the PAdES level it reached. */
export type Sealed = { bytes: Uint8Array; mode: SealMode; level: SealLevel };

/**
 * Returns the original pages (sandbox-marked if `sandbox`, without active content: see
 * active-content.ts) followed by a signature page and an audit certificate, sealed with a
 * PAdES (ETSI.CAdES.detached) signature, in one of the ways SealMode names.
 */
export async function sealPdf(
  input: SealPdfInput,
  options: {
    /** Seal without reading the original, attached unchanged, for this reason. */
    attachOnly?: string;
  } = {},
): Promise<Sealed> {
  const sealedAt = input.sealedAt ?? new Date();
  // The hash is printed on a legal certificate: a storage mix-up must fail, not be sealed.
  const actualSha256 = createHash('sha256').update(input.original).digest('hex');
  if (actualSha256 !== input.originalSha256.toLowerCase()) {
    throw new Error(`originalSha256 does not match the original (got ${actualSha256})`);
  }
  const requested = input.level ?? (input.tsaUrl ? 'B-T' : 'B-B');
  let choice: LevelChoice = { level: requested };
  for (;;) {
    try {
      return await sealAt(input, sealedAt, options, choice);
    } catch (err) {
      // An outside service (the time-stamp authority, a revocation source) failed: the seal
      // job retries (the fault, never the document, is reported). On its last attempt
      // (`settle`) the document is sealed at the level reached, and its certificate says so.
      if (!(err instanceof LevelShortfall)) throw err;
      if (!input.settle) throw err.fault;
      choice = { level: err.reached, requested, reason: err.fault.message.slice(0, 300) };
    }
  }
}

async function sealAt(
  input: SealPdfInput,
  sealedAt: Date,
  options: { attachOnly?: string },
  choice: LevelChoice,
): Promise<Sealed> {
  if (options.attachOnly) {
    return sealAttached(input, sealedAt, choice, new Error(options.attachOnly));
  }
  try {
    return await sealOriginal(input, sealedAt, choice);
  } catch (err) {
    // Uploads are opened once before they are accepted, so this is for what opens but cannot
    // be rewritten (objects our writer refuses): the signatures are real, so it is sealed as a
    // certificate with the original attached unchanged, and the document says so (sealMode,
    // its audit trail, the log). A fault of a service outside the document is no reason to.
    if (err instanceof LevelShortfall || !startsWithPdfHeader(input.original)) throw err;
    try {
      return await sealAttached(input, sealedAt, choice, err);
    } catch (again) {
      throw again instanceof LevelShortfall ? again : err;
    }
  }
}

async function sealOriginal(
  input: SealPdfInput,
  sealedAt: Date,
  choice: LevelChoice,
): Promise<Sealed> {
  let pdf = await PDF.load(input.original);
  if (pdf.isEncrypted && !pdf.isAuthenticated) throw new Error('A password is needed to open it');
  if (pdf.getPageCount() === 0) throw new Error('Cannot seal a PDF without pages');
  // The byte scan spares nearly every original reading its form.
  const signed = carriesSignatures(input.original) && hasSignedFields(pdf);
  if (signed && incrementalUpdateAllowed(pdf)) {
    return sealIncrementally(pdf, input, sealedAt, choice);
  }

  // What a viewer would run or open unasked was never shown on the signing page: the sealed
  // copy holds what the signees saw, and its audit certificate names what was removed. An XFA
  // form goes whole, scripts or not (active-content.ts): the certificate says so too.
  const xfa = hasXfaForm(pdf);
  const removed = scanActiveContent(pdf, { strip: true, bytes: input.original });
  // Permissions-only encryption (it opened without a password) is not carried over: the
  // sealed copy is for anyone to check, and the audit certificate says it was removed.
  const decrypted = pdf.isEncrypted;
  if (decrypted) (pdf as unknown as { _pendingSecurity: unknown })._pendingSecurity = REMOVE;
  // Usage rights (Adobe Reader's /Perms signatures) do not survive a rewrite: a viewer would
  // only warn that they no longer hold.
  pdf.getCatalog().delete('Perms');
  if (signed) dropSignatures(pdf);
  pdf = await PDF.load(await pdf.save({ incremental: false }));
  const originalPages = pdf.getPages();
  const fonts = embedSealFonts(pdf);
  // One canvas per original page: its field values and its sandbox mark become one content
  // stream, where each would add its own (and the first, two more around the page's content).
  const canvases = new Map<PDFPage, PageCanvas>();
  const canvasFor = (page: PDFPage): PageCanvas => {
    let canvas = canvases.get(page);
    if (!canvas) canvases.set(page, (canvas = pageCanvas(pdf, page)));
    return canvas;
  };
  if (input.fields?.length) drawFieldValues(pdf, fonts, input.fields, canvasFor);
  if (input.sandbox) for (const page of originalPages) drawSandboxMark(pdf, page, canvasFor(page));
  for (const canvas of canvases.values()) canvas.flush();
  const size = appendixPageSize(pdf, originalPages[0]);
  // Removed active content has a line of its own on the certificate.
  const notes = [
    ...(xfa ? ['its XFA form removed: its pages and fields are as signed'] : []),
    ...(decrypted ? ['its permissions-only encryption removed'] : []),
    ...(signed ? ['its earlier signatures could not be kept: it had to be repaired'] : []),
  ];
  const bytes = await appendAndSign(pdf, fonts, input, sealedAt, size, choice, {
    note: null,
    removedActiveContent: removed,
    fieldsDrawn: Boolean(input.fields?.length),
    mode: 'normalised',
    modeNote: notes.length
      ? `the original rewritten as one clean file (${notes.join('; ')})`
      : 'the original rewritten as one clean file',
  });
  return { bytes, mode: 'normalised', level: choice.level };
}

const REMOVE = { action: 'remove' };

// The signature field's one method used here, missing from the library's FormField type.
type SignatureField = { isSigned: () => boolean };

// A signature a validator checks is a signed signature field; a /ByteRange elsewhere (Adobe
// Reader's usage-rights signature in /Perms) is not one, and a rewrite only ends those rights.
function hasSignedFields(pdf: PDF): boolean {
  return (pdf.getForm()?.getFields() ?? []).some(
    (field) => field.type === 'signature' && (field as unknown as SignatureField).isSigned(),
  );
}

// A signed original is appended to, so that its signatures stay valid: nothing is drawn into
// its pages and nothing removed from it (a change a validator would report as made after
// signing); field values and sandbox marks go on the appended pages.
async function sealIncrementally(
  pdf: PDF,
  input: SealPdfInput,
  sealedAt: Date,
  choice: LevelChoice,
): Promise<Sealed> {
  const found = scanActiveContent(pdf, { strip: false, bytes: input.original });
  const fonts = embedSealFonts(pdf);
  const size = appendixPageSize(pdf, pdf.getPage(0)!);
  const bytes = await appendAndSign(pdf, fonts, input, sealedAt, size, choice, {
    note: null,
    removedActiveContent: [],
    fieldsDrawn: false,
    mode: 'incremental',
    modeNote: `the signed original kept byte for byte, these pages and the seal appended${
      found.length
        ? `; it holds ${describeActiveContent(found)}, kept so its signatures stay valid`
        : ''
    }`,
  });
  return { bytes, mode: 'incremental', level: choice.level };
}

/**
 * True when a signed original can take an incremental update. A linearized file can (it then
 * loads as an ordinary one; @libpdf/core would rewrite it whole, breaking its signatures); one
 * rebuilt from a damaged cross-reference section, or whose encryption would change, cannot.
 */
function incrementalUpdateAllowed(pdf: PDF): boolean {
  if (pdf.recoveredViaBruteForce) return false;
  if (pdf.isLinearized) (pdf as unknown as { _isLinearized: boolean })._isLinearized = false;
  return pdf.canSaveIncrementally() === null;
}

// The fallback: a new PDF of the signature and audit pages, the original as an embedded file.
async function sealAttached(
  input: SealPdfInput,
  sealedAt: Date,
  choice: LevelChoice,
  cause: unknown,
): Promise<Sealed> {
  const pdf = PDF.create();
  const reason = cause instanceof Error ? cause.message : String(cause);
  pdf.attachments.add(ATTACHED_ORIGINAL_NAME, input.original, {
    mimeType: 'application/pdf',
    description:
      `The signed original, unchanged (SHA-256 ${input.originalSha256}); it could not be modified: ${reason}`.slice(
        0,
        500,
      ),
  });
  const bytes = await appendAndSign(pdf, embedSealFonts(pdf), input, sealedAt, A4, choice, {
    note: 'the original is attached unchanged',
    removedActiveContent: [],
    fieldsDrawn: false,
    mode: 'attached',
    modeNote: `the original attached unchanged as ${ATTACHED_ORIGINAL_NAME}: it could not be modified (${reason.slice(0, 200)})`,
  });
  return { bytes, mode: 'attached', level: choice.level };
}

async function appendAndSign(
  pdf: PDF,
  fonts: SealFonts,
  input: SealPdfInput,
  sealedAt: Date,
  size: PageSize,
  choice: LevelChoice,
  how: {
    /** Added to the signature's reason. */
    note: string | null;
    removedActiveContent: ActiveContentKind[];
    /** The fields' values are on the original pages: no signature page then. */
    fieldsDrawn: boolean;
    mode: SealMode;
    /** How the sealed file was made, for the audit certificate. */
    modeNote: string;
  },
): Promise<Uint8Array> {
  const { note, removedActiveContent } = how;
  const ctx = {
    pdf,
    fonts,
    size,
    documentName: input.documentName,
    documentId: input.documentId,
    language: input.language ?? 'en',
    decorate: (page: PDFPage, canvas: PageCanvas) => {
      if (input.sandbox) drawSandboxMark(pdf, page, canvas);
    },
  };
  if (!how.fieldsDrawn) addSignaturePages(ctx, input.signatures);
  addAuditPages(
    ctx,
    {
      originalSha256: input.originalSha256,
      sealedAt,
      sealSubject: input.certificate.subject,
      sealFingerprint: input.certificate.fingerprint,
      removedActiveContent,
      sealMode: `${how.mode}: ${how.modeNote}`,
      sealLevel: choice,
      more: attachmentFacts(input.attachments ?? [], ctx.language),
    },
    input.auditEntries,
    input.fields ?? [],
  );
  // sign() saves without subsetting; finalizing first keeps only the glyphs drawn
  // (tens of kB instead of ~1.5 MB of font programs per sealed file).
  fonts.finish();
  pdf.fonts.finalize(true);
  // Before the signature, so that the seal covers them.
  embedAttachments(pdf, input.attachments ?? [], sealedAt);
  embedEvidence(pdf, buildEvidence(input, { sealedAt, mode: how.mode }), sealedAt);

  const reason = input.sandbox
    ? 'Sealed by Signet in the sandbox; not legally binding'
    : 'Sealed by Signet after all signatures were collected';
  return signAtLevel(
    pdf,
    {
      signer: await signerFor(input.certificate),
      fieldName: freeFieldName(pdf),
      reason: note ? `${reason}; ${note}` : reason,
      signingTime: sealedAt,
    },
    choice,
    input.tsaUrl,
  );
}

function startsWithPdfHeader(bytes: Uint8Array): boolean {
  return /%PDF-\d\.\d/.test(Buffer.from(bytes.subarray(0, 1024)).toString('latin1'));
}

/**
 * The seal certificate's signer, made once per certificate: parsing a P12 costs ~100 ms (key
 * derivation), and a process seals with one certificate.
 */
export function signerFor(certificate: SealCertificate): Promise<Signer> {
  const key = `${certificate.fingerprint}:${certificate.password}`;
  let signer = signers.get(key);
  if (!signer) {
    signer = P12Signer.create(certificate.p12, certificate.password).then(synchronousSigner);
    signers.set(key, signer);
    signer.catch(() => signers.delete(key));
  }
  return signer;
}

/**
 * The P12's key signing with Node's crypto.sign, which returns at once, where P12Signer signs
 * through WebCrypto: a job on libuv's thread pool that the sealing thread then waits for (0.45 ms
 * of a 10-page seal, docs/benchmarks.md). The same key, hash and padding (PKCS #1 v1.5 for RSA,
 * the kind P12Signer gives an RSA key); ECDSA signatures come DER-encoded, as CMS wants them.
 * Any other kind of key signs through P12Signer.
 */
function synchronousSigner(p12: P12Signer): Signer {
  // P12Signer keeps its key in a property its types call private.
  const key = (p12 as unknown as { privateKey?: unknown }).privateKey;
  const kind = p12.signatureAlgorithm;
  if (!(key instanceof CryptoKey) || (kind !== 'RSASSA-PKCS1-v1_5' && kind !== 'ECDSA')) {
    return p12;
  }
  const privateKey = KeyObject.from(key);
  return {
    certificate: p12.certificate,
    certificateChain: p12.certificateChain,
    keyType: p12.keyType,
    signatureAlgorithm: kind,
    sign: async (data, algorithm) =>
      new Uint8Array(
        signSync(algorithm.replace('-', '').toLowerCase(), data, {
          key: privateKey,
          dsaEncoding: 'der',
        }),
      ),
  };
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
