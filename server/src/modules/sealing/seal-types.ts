import type { EvidenceSignee } from './evidence-schema.js';
import type { SealCertificate } from './seal-certificate.js';
import type { SealVerification } from './verification-evidence.js';

/**
 * PAdES baseline levels (ETSI EN 319 142-1), each adding to the one before: `B-B` a signature;
 * `B-T` a time stamp on it from the time-stamp authority; `B-LT` the certificates and revocation
 * data of the seal's and the time stamp's chains in a DSS after it; `B-LTA` a document time
 * stamp over all of that.
 */
export const SEAL_LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
export type SealLevel = (typeof SEAL_LEVELS)[number];

/** Kind of the durable job that seals a document. */
export const SEAL_JOB = 'document.seal';

/** One completed signature, as shown on the signature page. */
export type SealSignature = {
  name: string;
  email: string;
  /** ISO 8601 time of signing. */
  signedAt: string;
  /** PNG of the drawn signature; when absent (or unreadable) `typedName` or `name` is written in a script font. */
  image?: Uint8Array;
  typedName?: string;
};

/** One audit trail row, as shown on the audit certificate. */
export type SealAuditEntry = {
  /** ISO 8601 time of the event. */
  at: string;
  action: string;
  actor: string;
  ip: string | null;
  userAgent: string | null;
  /** An e-mail entry's recipient address and kind of e-mail; absent on other entries. */
  email?: { to: string; kind: string | null };
  /** A verification entry's method and vouched identity (decisions §13); absent on others. */
  verification?: SealVerification;
};

/** A signee's adopted mark for signature or initials fields: an image, or typed text. */
export type SealMark = { image?: Uint8Array; typed?: string };

/** A field with its value, as drawn into the original page and listed on the certificate. */
export type SealField = {
  type: string;
  /** 1-based page; the box in points from the top-left of the page as displayed. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  label: string | null;
  /** Text as shown (a formatted date for date fields), a boolean for a checkbox, null if empty. */
  value: string | boolean | null;
  /** For signature and initials fields: what to draw. */
  mark?: SealMark;
  /** The text tag the field came from: painted over before the value is drawn. */
  tagBox: { x: number; y: number; width: number; height: number } | null;
  signeeName: string;
  signeeEmail: string;
  filledAt: string | null;
};

/** A file a signee attached (decisions §15), embedded in the sealed PDF as an associated file. */
export type SealAttachment = {
  id: string;
  /** The name it is embedded under (seal-attachments.ts). */
  name: string;
  /** Its name as uploaded, shown on the certificate. */
  filename: string;
  mimeType: string;
  /** Lowercase hex SHA-256 of `bytes`. */
  sha256: string;
  bytes: Uint8Array;
};

export type SealPdfInput = {
  original: Uint8Array;
  signatures: SealSignature[];
  /** Fields drawn into the original pages; when any, no signature page is appended. */
  fields?: SealField[];
  auditEntries: SealAuditEntry[];
  documentName: string;
  documentId: string;
  /** The document's language (`emailLanguage`): the appended pages speak it. English if absent. */
  language?: string;
  /** Lowercase hex SHA-256 of `original`, printed on the audit certificate. */
  originalSha256: string;
  /** Marks every page `SANDBOX - NOT LEGALLY BINDING`. */
  sandbox: boolean;
  certificate: SealCertificate;
  /** RFC 3161 time-stamp authority: needed for every level above B-B. */
  tsaUrl?: string;
  /** The PAdES level to seal at (SEAL_LEVEL); B-T with a `tsaUrl`, else B-B, when absent. */
  level?: SealLevel;
  /**
   * The seal job's last attempt: when an outside service fails, seal at the highest level
   * reached (the certificate says which and why) instead of failing for a retry.
   */
  settle?: boolean;
  /** Time written on the audit certificate and into the signature; defaults to now. */
  sealedAt?: Date;
  /**
   * How each signee was identified, for the evidence file (evidence.ts gatherSigneeEvidence);
   * without it the evidence names only who signed, from `signatures`.
   */
  signees?: EvidenceSignee[];
  /** Signees' attached files: embedded, and listed with their SHA-256 on the certificate. */
  attachments?: SealAttachment[];
};

/**
 * Content a viewer may run or open on its own, which nobody saw on the signing page:
 * - `javascript`: JavaScript actions (document-level scripts, open actions, triggers), `/JS`
 *   anywhere, an XFA form's scripts, links to `javascript:`, `vbscript:` or `data:` addresses;
 * - `launch`: actions that start a program or open another file, links to `file:` addresses;
 * - `form_submission`: actions (and XFA events) that send form data to, or load it from, an
 *   address;
 * - `embedded_files`: files carried inside the PDF (attachments, associated files, file
 *   annotations).
 */
export const ACTIVE_CONTENT_KINDS = [
  'javascript',
  'launch',
  'form_submission',
  'embedded_files',
] as const;
export type ActiveContentKind = (typeof ACTIVE_CONTENT_KINDS)[number];

/** The attachment that carries the original in a seal made without modifying it. */
export const ATTACHED_ORIGINAL_NAME = 'original.pdf';

/**
 * The associated file in every sealed PDF holding the machine-readable evidence (the audit
 * trail as a hash chain, the field values, the signees' authentication, the original's hash):
 * vouched for by the seal that covers it, like the attached original of an `attached` seal.
 */
export const EVIDENCE_FILE_NAME = 'evidence.json';

/** The prefix of the name each signee's attachment is embedded under (seal-attachments.ts). */
export const ATTACHMENT_NAME_PREFIX = 'attachment-';
