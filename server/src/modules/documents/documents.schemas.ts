import { z } from 'zod';

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

export const documentStatusSchema = z.enum([
  'draft',
  'in_process',
  'pending_seal',
  'signed',
  'declined',
  'cancelled',
]);

const timestamp = z.string().describe('ISO 8601 UTC timestamp with milliseconds');

/** The Document resource, every field of the specification's table. */
export const documentSchema = z.object({
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
  downloadUrl: z.url(),
});

/** The Signee resource. */
export const signeeSchema = z.object({
  id: z.uuid(),
  documentId: z.uuid(),
  email: z.string(),
  name: z.string(),
  status: z.enum(['pending', 'signed', 'declined']),
  userId: z.uuid(),
  signingOrder: z.number().int().nullable(),
  signingGroupId: z.string().nullable(),
  signedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

/** One element of the multipart `signees` JSON array. */
export const signeeInputSchema = z.object({
  email: z.email('must be a valid e-mail address').max(254),
  name: z.string().trim().min(1, 'must not be empty').max(200),
  signingOrder: z.number().int().min(1).max(1000).optional(),
  signingGroupId: z.string().trim().min(1).max(100).optional(),
});

export const signeesInputSchema = z
  .array(signeeInputSchema)
  .min(1, 'at least one signee is required')
  .max(MAX_SIGNEES, `at most ${MAX_SIGNEES} signees`);

/** The non-file parts of quick-create. */
export const quickCreateFieldsSchema = z.object({
  tenantId: z.uuid(),
  signees: signeesInputSchema,
  name: z.string().trim().min(1).max(255).optional(),
  signingMessage: z.string().max(5000).optional(),
  signingOrderEnabled: z.enum(['true', 'false']).optional(),
});

export const quickCreateResponse = z.object({
  message: z.string(),
  document: documentSchema,
  signees: z.array(signeeSchema),
  contentType: z.string(),
});

export const documentWithSigneesSchema = z.object({
  document: documentSchema,
  signees: z.array(signeeSchema),
});

export const deliverySchema = z.object({
  signeeId: z.uuid(),
  email: z.string(),
  status: z.enum(['sent', 'scheduled', 'failed', 'link']),
  error: z.string().nullable(),
  signingUrl: z.url().optional(),
});

export const sendResponse = documentWithSigneesSchema.extend({
  deliveries: z.array(deliverySchema),
});

export const documentParams = z.object({ documentId: z.uuid() });

export const listQuery = z.object({
  tenantId: z.uuid(),
  status: documentStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(200).optional(),
});

export const listResponse = z.object({
  documents: z.array(documentSchema),
  nextCursor: z.string().nullable(),
});

export const auditEntrySchema = z.object({
  id: z.uuid(),
  action: z.string(),
  actor: z.string(),
  signeeId: z.uuid().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: timestamp,
});
