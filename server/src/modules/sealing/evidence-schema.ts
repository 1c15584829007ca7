import { z } from 'zod';
import { evidenceVerificationSchema } from './verification-evidence.js';

/** The evidence file's format: its name, and the version a reader checks before trusting it. */
export const EVIDENCE_FORMAT = { name: 'signet-evidence', version: 1 } as const;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'lowercase hex SHA-256');
const time = z.string().describe('ISO 8601 time, UTC');

const auditEntry = z
  .object({
    prev: sha256.describe(
      "SHA-256 of the canonical JSON of the entry before; the first entry's is the original's SHA-256",
    ),
    at: time,
    action: z
      .string()
      .describe("what happened, as the audit certificate says it ('signed', 'approved', …)"),
    actor: z.string().describe("who: 'Name <e-mail>' for a signee, 'sender', 'system'"),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    recipient: z
      .string()
      .optional()
      .describe(
        "an e-mail entry's recipient address ('e-mailed', 'e-mail failed'); absent on others",
      ),
    emailKind: z
      .string()
      .nullable()
      .optional()
      .describe(
        "an e-mail entry's kind: 'invitation', 'reminder', 'declined', 'cancelled', 'copy'; null when not recorded",
      ),
  })
  .strict();

/** What is known of how a signee was identified and how they signed. */
export const evidenceSigneeSchema = z
  .object({
    name: z.string(),
    email: z.string(),
    status: z
      .enum(['pending', 'signed', 'declined'])
      .describe("'signed' for an approver who approved; a cc recipient's stays 'pending'"),
    role: z
      .enum(['signer', 'approver', 'cc'])
      .optional()
      .describe(
        "signer signs; approver approves ('approved' in the trail, no signature, no consent); cc is copied on the outcome (no link). Absent in files sealed before roles existed: signer",
      ),
    invitation: z
      .object({
        channel: z
          .enum(['email', 'link'])
          .nullable()
          .describe(
            "'email': the signing link was e-mailed to `email`; 'link': it was handed to the sender, who delivered it; null: not recorded",
          ),
        invitedAt: time.nullable(),
        emailedAt: z.array(time).describe('each recorded delivery of the link to `email`'),
      })
      .strict(),
    openedAt: time.nullable().describe('first opening of the signing link'),
    signedAt: time.nullable(),
    ip: z.string().nullable().describe('address the signature came from'),
    userAgent: z.string().nullable().describe('browser the signature came from'),
    consent: z
      .object({
        given: z.boolean(),
        statement: z.string().describe('what the signee ticked, in the language of the page'),
      })
      .strict()
      .nullable(),
    method: z.enum(['drawn', 'typed', 'uploaded']).nullable(),
    typedName: z.string().nullable(),
    signatureImageSha256: sha256
      .nullable()
      .describe('SHA-256 of the drawn (or uploaded, re-encoded) signature (PNG)'),
    verification: evidenceVerificationSchema
      .nullable()
      .optional()
      .describe(
        'how the signing link was verified before it opened (decisions §13): null when it asked for nothing and nothing was given; absent in files sealed before verification existed',
      ),
  })
  .strict();

const field = z
  .object({
    type: z.string(),
    page: z.number().int().min(1),
    box: z
      .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
      .strict()
      .describe('points from the top-left corner of the page as displayed'),
    label: z.string().nullable(),
    value: z.union([z.string(), z.boolean(), z.null()]),
    filledBy: z.object({ name: z.string(), email: z.string() }).strict(),
    filledAt: time.nullable(),
  })
  .strict();

/** The evidence file embedded in every sealed PDF (docs/evidence.md). */
export const evidenceSchema = z
  .object({
    format: z
      .object({
        name: z.literal(EVIDENCE_FORMAT.name),
        version: z.literal(EVIDENCE_FORMAT.version),
      })
      .strict(),
    document: z
      .object({
        id: z.string(),
        name: z.string(),
        language: z.string(),
        originalSha256: sha256,
      })
      .strict(),
    seal: z
      .object({
        sealedAt: time,
        mode: z.enum(['normalised', 'incremental', 'attached']),
        sandbox: z.boolean(),
        certificate: z.object({ subject: z.string(), fingerprintSha256: z.string() }).strict(),
      })
      .strict(),
    signees: z.array(evidenceSigneeSchema),
    fields: z.array(field),
    attachments: z
      .array(
        z
          .object({
            filename: z.string().describe('the name the signee uploaded it under'),
            embeddedAs: z.string().describe("its name among the PDF's embedded files"),
            contentType: z.enum(['application/pdf', 'image/png', 'image/jpeg']),
            sha256,
          })
          .strict(),
      )
      .optional()
      .describe(
        'files signees attached to attachment fields (decisions §15), embedded beside this file; absent in files sealed before attachments existed',
      ),
    auditTrail: z
      .object({
        entries: z.array(auditEntry),
        head: sha256.describe("SHA-256 of the last entry; the original's SHA-256 when none"),
      })
      .strict(),
  })
  .strict();

/** A parsed evidence file. */
export type Evidence = z.infer<typeof evidenceSchema>;
/** One signee's authentication evidence. */
export type EvidenceSignee = z.infer<typeof evidenceSigneeSchema>;

/** The JSON Schema (draft 2020-12) of the evidence file, as docs/evidence.schema.json holds it. */
export function evidenceJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(evidenceSchema, { target: 'draft-2020-12' }),
    title: 'Signet evidence.json',
  };
}
