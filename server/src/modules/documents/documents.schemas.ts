import { z } from 'zod';
import { SEAL_LEVELS } from '../sealing/seal-types.js';
import { findNulCharacter } from '../../lib/nul-characters.js';
import type { FieldError } from '../../lib/errors.js';
import { fieldSchema, quickCreateFieldSchema } from '../fields/fields.schemas.js';
import {
  externalIdSchema,
  MAX_EXTERNAL_ID,
  metadataSchema,
  redirectUrlSchema,
} from './integrator-fields.js';
import { NOBODY_ACTS, signeeRoleSchema, someoneActs } from './signee-roles.js';
import { remindersAnswer, remindersInput } from './reminder-policy.js';
import {
  refineSigneeAuths,
  signeeAuthFields,
  signeeAuthSchema,
} from '../signing/signee-auth-input.js';

/** Uploads must be below 50 MiB (the specification's limit). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** @fastify/multipart limits of the upload routes: one file part under 50 MiB, few fields. */
export const MULTIPART_LIMITS = {
  fileSize: MAX_UPLOAD_BYTES - 1,
  files: 1,
  fields: 20,
  fieldSize: 1024 * 1024,
  parts: 21,
};
/** At most this many signees per document. */
export const MAX_SIGNEES = 100;

/** Every status a document can have. */
export const documentStatusSchema = z.enum([
  'draft',
  'in_process',
  'pending_seal',
  'seal_failed',
  'signed',
  'declined',
  'cancelled',
]);

const timestamp = z.string().describe('ISO 8601 UTC timestamp with milliseconds');

/** Why a deadline is refused once it has passed (at input, or at sending: expiry.ts). */
export const PAST_DEADLINE = 'must be in the future';

/** A deadline as input (decisions §12): an ISO 8601 time with its offset, kept in UTC. */
export const expiresAtInput = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 time, e.g. 2027-01-31T17:00:00Z' })
  .transform((v) => new Date(v).toISOString())
  .refine((v) => v > new Date().toISOString(), PAST_DEADLINE)
  .describe(
    'When the signing expires (ISO 8601, in the future): still in process then, the document is cancelled with cancelReason "expired" and its links stop working.',
  );

/** The Document resource, every field of the specification's table. */
export const documentSchema = z
  .object({
    id: z.uuid(),
    tenantId: z.uuid(),
    folderId: z.uuid().nullable(),
    name: z.string(),
    status: documentStatusSchema,
    pinned: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    source: z.string(),
    userId: z.uuid(),
    signingMethod: z.string(),
    signingMessage: z.string().nullable(),
    signingOrderEnabled: z.boolean().nullable(),
    signingGroupsEnabled: z.boolean(),
    reminderCooldownUntil: timestamp.nullable(),
    emailLanguage: z.string(),
    file: z.string(),
    originalFile: z.string(),
    hash: z.string().nullable(),
    sealMode: z
      .enum(['normalised', 'incremental', 'attached'])
      .nullable()
      .describe(
        'How the sealed file was made, null until signed: normalised (the original rewritten as one clean file, values drawn on its pages), incremental (a signed original kept byte for byte, pages and seal appended), attached (the original attached unchanged to signature and audit pages)',
      ),
    sealLevel: z
      .enum(SEAL_LEVELS)
      .nullable()
      .describe(
        'The PAdES baseline level the seal reached, null until signed: B-B, B-T (time-stamped), B-LT (with the certificates and revocation data to validate it later), B-LTA (with an archive time stamp over those). Lower than SEAL_LEVEL only when an outside service stayed unreachable through every retry; the audit certificate says why.',
      ),
    sealFailure: z
      .string()
      .nullable()
      .describe(
        'While the status is seal_failed: why nothing could be sealed after every retry. POST /api/documents/{id}/seal retries.',
      ),
    templateId: z
      .uuid()
      .nullable()
      .describe('The template it was made from (source template, direct_link or bulk_send)'),
    externalId: z.string().nullable().describe("The integrator's own id for the document"),
    metadata: z
      .record(z.string(), z.string())
      .nullable()
      .describe("The integrator's own flat object of strings"),
    expiresAt: timestamp
      .nullable()
      .describe(
        'When the signing expires: a document still in_process then is cancelled with cancelReason "expired". Set when sending (expiresAt, else the tenant\'s expiryDays); null: never.',
      ),
    cancelReason: z
      .enum(['expired'])
      .nullable()
      .describe(
        'Why a cancelled document was cancelled: "expired", or null (its sender cancelled it)',
      ),
    reminders: remindersAnswer,
    completedAt: timestamp
      .nullable()
      .describe(
        'When it became signed (sealed); null before. GET /api/documents?completedSince= filters on it.',
      ),
    redirectUrl: z
      .string()
      .nullable()
      .describe(
        'Where the signing page sends each signee after they sign or decline, with ?documentId=…&signeeId=…&event=signed|declined appended',
      ),
    downloadUrl: z.url(),
  })
  .meta({ id: 'Document' });

/** The Signee resource. */
export const signeeSchema = z
  .object({
    id: z.uuid(),
    documentId: z.uuid(),
    email: z.string(),
    name: z.string(),
    status: z
      .enum(['pending', 'signed', 'declined'])
      .describe(
        "signed: signed, or approved by an approver; a cc recipient's stays pending (they act on nothing)",
      ),
    role: signeeRoleSchema,
    userId: z.uuid(),
    signingOrder: z.number().int().nullable(),
    signingGroupId: z.string().nullable(),
    signedAt: timestamp.nullable(),
    invitedAt: timestamp.nullable().describe('when the signing link was first sent or issued'),
    openedAt: timestamp.nullable().describe('when the signee first opened their signing link'),
    declinedAt: timestamp.nullable(),
    declineReason: z.string().nullable().describe('the reason the signee gave when declining'),
    language: z
      .string()
      .nullable()
      .describe("the signee's own e-mail language; null: the document's emailLanguage"),
    auth: signeeAuthSchema,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Signee' });

/** `POST /api/documents/{id}/cancel`: an optional reason, told to the invited signees. */
export const cancelBody = z
  .object({ reason: z.string().trim().max(1000).optional() })
  .strict()
  .nullish();

/** One element of the multipart `signees` JSON array. */
export const signeeInputSchema = z.object({
  email: z.email('must be a valid e-mail address').max(254),
  name: z.string().trim().min(1, 'must not be empty').max(200),
  signingOrder: z.number().int().min(1).max(1000).optional(),
  signingGroupId: z.string().trim().min(1).max(100).optional(),
  role: signeeRoleSchema.optional(),
  ...signeeAuthFields,
});

/** The decoded `signees` part: 1 to MAX_SIGNEES signees. */
export const signeesInputSchema = z
  .array(signeeInputSchema)
  .min(1, 'at least one signee is required')
  .max(MAX_SIGNEES, `at most ${MAX_SIGNEES} signees`)
  .refine(someoneActs, NOBODY_ACTS)
  .superRefine(refineSigneeAuths);

/** The non-file parts of quick-create, `signees` already decoded from JSON. */
export const quickCreateFieldsSchema = z.object({
  tenantId: z.uuid(),
  signees: signeesInputSchema,
  name: z.string().trim().min(1).max(255).optional(),
  signingMessage: z.string().max(5000).optional(),
  signingOrderEnabled: z.enum(['true', 'false']).optional(),
  expiresAt: expiresAtInput.optional(),
  externalId: externalIdSchema.optional(),
  metadata: metadataSchema.optional(),
  redirectUrl: redirectUrlSchema.optional(),
  reminders: remindersInput.optional(),
});

/** A multipart part holding one PDF, for the OpenAPI document. */
export const pdfPart = z.string().meta({
  format: 'binary',
  contentMediaType: 'application/pdf',
  description: 'a PDF, below 50 MiB',
});

/**
 * Quick-create's parts as they travel, for the OpenAPI document: upload.ts reads them and
 * quickCreatePartsSchema checks them. `signees` and `fields` are JSON parts.
 */
export const quickCreateParts = z
  .object({
    file: pdfPart,
    tenantId: z.uuid(),
    signees: signeesInputSchema,
    name: z.string().max(255).optional().describe('defaults to the file name'),
    signingMessage: z.string().max(5000).optional().describe('shown in the invitation'),
    expiresAt: expiresAtInput.optional(),
    signingOrderEnabled: z
      .enum(['true', 'false'])
      .optional()
      .describe('true: signees sign one after another, by signingOrder'),
    signingGroupsEnabled: z
      .enum(['true', 'false'])
      .optional()
      .describe('true: signees sharing a signingGroupId sign for the group (one of them)'),
    fields: z
      .array(quickCreateFieldSchema)
      .optional()
      .describe('fields on the pages, by 0-based signee position (docs/fields.md)'),
    textTags: z
      .enum(['true', 'false'])
      .optional()
      .describe('true: turn {{TYPE:N}} text tags in the PDF into fields'),
    externalId: externalIdSchema
      .optional()
      .describe('your own id for the document, at most 255 characters; the listing filters on it'),
    metadata: metadataSchema
      .optional()
      .describe('JSON object of string values, at most 4 KiB; answered and sent in webhooks'),
    redirectUrl: redirectUrlSchema
      .optional()
      .describe('where the signing page sends each signee after they sign or decline'),
    reminders: remindersInput
      .optional()
      .describe(
        "JSON {firstAfterDays, everyDays, max}: automatic reminders for this document; null: none; absent: the tenant's defaults",
      ),
  })
  .meta({
    examples: [
      {
        file: '(binary PDF)',
        tenantId: '0192f1c4-5b7e-7c3a-9d2e-3f4a5b6c7d8e',
        signees: [
          { email: 'ada@example.com', name: 'Ada Lovelace' },
          { email: 'grace@example.com', name: 'Grace Hopper', role: 'approver' },
          { email: 'legal@example.com', name: 'Legal team', role: 'cc' },
        ],
        name: 'Master services agreement',
        fields: [{ signee: 0, type: 'signature', page: 1, x: 72, y: 640, width: 180, height: 48 }],
        externalId: 'crm-deal-1042',
        metadata: { dealId: '1042', region: 'emea' },
        redirectUrl: 'https://app.example.com/contracts/1042/done',
        reminders: { firstAfterDays: 3, everyDays: 2, max: 3 },
      },
    ],
  });

/**
 * Quick-create's raw multipart text parts, checked and decoded: `signees` parsed as JSON, no NUL
 * characters anywhere, the fields above, e-mails unique ignoring case, the booleans as booleans.
 * Issues come in that order; an issue inside `signees` is told only if none came before it (a
 * part that is not JSON, a NUL, a bad `tenantId`), and e-mails are compared only once every
 * field is valid.
 */
export const quickCreatePartsSchema = z.record(z.string(), z.string()).transform((raw, ctx) => {
  let failed = false;
  const report = (path: PropertyKey[], message: string) => {
    failed = true;
    ctx.addIssue({ code: 'custom', path, message, input: raw });
  };
  // A JSON part that is not JSON is told once, as such, not again by the schema.
  const undecodable = new Set<PropertyKey>();
  const decoded = (key: 'signees' | 'metadata' | 'reminders', message: string): unknown => {
    if (raw[key] === undefined) return undefined;
    try {
      return JSON.parse(raw[key]);
    } catch {
      report([key], message);
      undecodable.add(key);
      return raw[key];
    }
  };
  const signees = decoded('signees', 'must be a JSON array of {email, name}');
  const metadata = decoded('metadata', 'must be a JSON object of string values');
  const reminders = decoded('reminders', 'must be JSON: {firstAfterDays, everyDays, max} or null');
  // Multipart parts skip the JSON hooks: the same NUL rule as every other field. A NUL in a
  // part's name (path '') passes: no field of ours has such a name, so the part is ignored.
  const nul = findNulCharacter({ ...raw, signees, metadata, reminders }, '');
  if (nul) report(nul.split('.'), 'must not contain NUL characters');
  const fields = quickCreateFieldsSchema.safeParse({ ...raw, signees, metadata, reminders });
  if (!fields.success) {
    // An issue inside `signees` is told only when it is the first issue of all.
    for (const issue of fields.error.issues) {
      if (undecodable.has(issue.path[0])) continue;
      if (!(failed && issue.path[0] === 'signees')) report(issue.path, issue.message);
    }
  } else {
    const seen = new Map<string, number>();
    fields.data.signees.forEach((signee, i) => {
      const key = signee.email.toLowerCase();
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i);
      else report(['signees', i, 'email'], `duplicates signees.${first}.email`);
    });
  }
  const groups = raw.signingGroupsEnabled;
  if (groups !== undefined && groups !== 'true' && groups !== 'false') {
    report(['signingGroupsEnabled'], 'must be true or false');
  }
  if (failed || !fields.success) return z.NEVER;
  const { signingOrderEnabled, ...data } = fields.data;
  return {
    ...data,
    signingOrderEnabled:
      signingOrderEnabled === undefined ? undefined : signingOrderEnabled === 'true',
    signingGroupsEnabled: groups === 'true',
  };
});

/** Quick-create's text parts once valid: what a new document takes besides its file. */
export type QuickCreateParts = z.output<typeof quickCreatePartsSchema>;

/** A ZodError as the `errors[]` of a 422: each issue's path joined with '.', and its message. */
export function fieldErrorsOf(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** The 201 answer of quick-create. */
export const quickCreateResponse = z.object({
  message: z.string(),
  document: documentSchema,
  signees: z.array(signeeSchema),
  fields: z.array(fieldSchema),
  contentType: z.string(),
});

/** A document with its signees, as most document routes answer. */
export const documentWithSigneesSchema = z.object({
  document: documentSchema,
  signees: z.array(signeeSchema),
});

/** `GET /api/documents/{id}`: a document with its signees and fields. */
export const documentDetailSchema = documentWithSigneesSchema.extend({
  fields: z.array(fieldSchema),
});

/** What became of one signee's invitation. */
export const deliverySchema = z.object({
  signeeId: z.uuid(),
  email: z.string(),
  status: z.enum(['sent', 'scheduled', 'failed', 'link']),
  error: z.string().nullable(),
  signingUrl: z.url().optional(),
});

/** The answer of send-for-signing and remind. */
export const sendResponse = documentWithSigneesSchema.extend({
  deliveries: z.array(deliverySchema),
});

/** Path parameters of the routes under /api/documents/{documentId}. */
export const documentParams = z.object({ documentId: z.uuid() });

/** Query of the document listing. */
/** An ISO 8601 time in a query, compared as the UTC form the service stores. */
const isoTimeFilter = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 time, e.g. 2027-01-31T17:00:00Z' })
  .transform((v) => new Date(v).toISOString())
  .optional();

export const listQuery = z.object({
  tenantId: z.uuid(),
  status: documentStatusSchema.optional(),
  folderId: z.uuid().optional().describe('only the documents filed directly in this folder'),
  pinned: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .describe('true: only pinned documents; false: only documents not pinned'),
  externalId: z
    .string()
    .max(MAX_EXTERNAL_ID)
    .optional()
    .describe('only the documents with exactly this externalId'),
  completedSince: isoTimeFilter.describe(
    'only the documents that became signed at or after this time (their completedAt)',
  ),
  emailFailed: z
    .enum(['true'])
    .transform(() => true)
    .optional()
    .describe(
      'true: only the documents in process where a pending signee’s invitation or reminder was refused for good (bounced) and no later one went out, as GET /api/documents/summary counts them',
    ),
  q: z
    .string()
    .max(200)
    .optional()
    .describe(
      "search: contained in the document's name or a signee's name or e-mail, ignoring case",
    ),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(200).optional(),
});

/** One page of the document listing. */
export const listResponse = z.object({
  documents: z.array(documentSchema),
  nextCursor: z.string().nullable(),
});

/** One entry of a document's audit trail. */
export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    action: z.string(),
    actor: z.string(),
    signeeId: z.uuid().nullable(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'AuditEntry' });
