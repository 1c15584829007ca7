import { z } from 'zod';
import { emailLanguages } from '../tenants/tenants.schemas.js';
import {
  documentDetailSchema,
  expiresAtInput,
  signeeInputSchema,
  signeeSchema,
} from './documents.schemas.js';
import { externalIdSchema, metadataSchema, redirectUrlSchema } from './integrator-fields.js';
import { signeeRoleSchema } from './signee-roles.js';
import { refineSigneeAuth, signeeAuthFields } from '../signing/signee-auth-input.js';
import { remindersInput } from './reminder-policy.js';

const atLeastOne = (v: object) => Object.keys(v).length > 0;

/**
 * `PATCH /api/documents/{id}`: the draft's settings, the deadline and the integrator's fields
 * (draft or in process; null clears), and filing (any status).
 */
export const editDocumentBody = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(255).optional(),
    signingMessage: z.string().max(5000).nullable().optional(),
    emailLanguage: z.enum(emailLanguages).optional(),
    signingOrderEnabled: z.boolean().nullable().optional(),
    signingGroupsEnabled: z.boolean().optional(),
    pinned: z.boolean().optional(),
    folderId: z.uuid().nullable().optional(),
    expiresAt: expiresAtInput.nullable().optional(),
    externalId: externalIdSchema.nullable().optional(),
    metadata: metadataSchema
      .nullable()
      .optional()
      .describe('the whole new object (not merged with the old one); null removes it'),
    redirectUrl: redirectUrlSchema.nullable().optional(),
    reminders: remindersInput.optional(),
  })
  .strict()
  .refine(atLeastOne, 'give at least one property to change')
  .meta({
    examples: [
      {
        externalId: 'crm-deal-1042',
        metadata: { dealId: '1042', stage: 'negotiation' },
        redirectUrl: 'https://app.example.com/contracts/1042/done',
      },
      { name: 'Master services agreement (v2)', pinned: true },
    ],
  });

/** What `PATCH /api/documents/{id}` may change. */
export type DocumentEdit = z.output<typeof editDocumentBody>;

/** The properties only a draft may change; `pinned` and `folderId` change in any status. */
export const DRAFT_ONLY: ReadonlyArray<keyof DocumentEdit> = [
  'name',
  'signingMessage',
  'emailLanguage',
  'signingOrderEnabled',
  'signingGroupsEnabled',
];

/**
 * The properties an integrator may change while the document is a draft or in process: its own
 * references to it, and where signees go next, can follow its own records until the document
 * is finished; after that, the events already delivered named them and they stay.
 */
export const OPEN_ONLY: ReadonlyArray<keyof DocumentEdit> = [
  'expiresAt',
  'externalId',
  'metadata',
  'redirectUrl',
  'reminders',
];

/** `POST /api/documents/{id}/signees`: one signee input, as in quick-create. */
export const addSigneeBody = signeeInputSchema
  .strict()
  .superRefine((s, ctx) => refineSigneeAuth(s, ctx));

/** `PATCH /api/documents/{id}/signees/{signeeId}`: any of a signee input's properties. */
export const editSigneeBody = z
  .object({
    email: signeeInputSchema.shape.email.optional(),
    name: signeeInputSchema.shape.name.optional(),
    signingOrder: z.number().int().min(1).max(1000).nullable().optional(),
    signingGroupId: z.string().trim().min(1).max(100).nullable().optional(),
    role: signeeRoleSchema.optional(),
    // The pair is checked against the signee's own code (editing.service.ts): a signee who has
    // one may change only `auth`, or only the code.
    ...signeeAuthFields,
  })
  .strict()
  .refine(atLeastOne, 'give at least one property to change');

/** What `PATCH …/signees/{signeeId}` may change. */
export type SigneeEdit = z.output<typeof editSigneeBody>;

export const signeeParams = z.object({ documentId: z.uuid(), signeeId: z.uuid() });

/** The answer of the signee routes: the signee, and the document as it now stands. */
export const signeeChangeResponse = documentDetailSchema.extend({ signee: signeeSchema });
