import { z } from 'zod';
import { signeeAuthFields } from '../signing/signee-auth-input.js';
import { remindersInput } from '../documents/reminder-policy.js';
import { fieldSchema, MAX_FIELDS, templateFieldInputSchema } from '../fields/fields.schemas.js';
import {
  expiresAtInput,
  deliverySchema,
  documentSchema,
  MAX_SIGNEES,
  pdfPart,
  signeeSchema,
} from '../documents/documents.schemas.js';
import {
  externalIdSchema,
  metadataSchema,
  redirectUrlSchema,
} from '../documents/integrator-fields.js';
import { emailLanguages } from '../tenants/tenants.schemas.js';
import { signeeRoleSchema, someoneActs } from '../documents/signee-roles.js';

const timestamp = z.string().describe('ISO 8601 UTC timestamp with milliseconds');
const roleName = z.string().trim().min(1, 'must not be empty').max(200);
const signingOrder = z.number().int().min(1).max(1000);

/** At most this many roles on a template (as signees on a document). */
export const MAX_ROLES = MAX_SIGNEES;
// Bulk rows read the limit from here, beside the rest of a template's document input.
export { MAX_EXTERNAL_ID, MAX_METADATA_BYTES } from '../documents/integrator-fields.js';

/** A template's role: who signs in its place on each document made from it. */
export const templateRoleSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    signingOrder: z.number().int().nullable(),
    role: signeeRoleSchema.describe(
      'the recipient role of whoever fills it: signer, approver (approves, no fields) or cc (copied, no link)',
    ),
  })
  .meta({ id: 'TemplateRole' });

/** The Template resource (decisions §11). */
export const templateSchema = z
  .object({
    id: z.uuid(),
    tenantId: z.uuid(),
    name: z.string(),
    roles: z.array(templateRoleSchema),
    signingMessage: z.string().nullable(),
    emailLanguage: z.enum(emailLanguages),
    signingOrderEnabled: z.boolean().nullable(),
    directLink: z.object({
      enabled: z.boolean(),
      url: z.url().nullable().describe('{base_url}/t/{token} while enabled, else null'),
    }),
    createdAt: timestamp,
    updatedAt: timestamp,
    originalFile: z.string().describe('the uploaded file name'),
    pageCount: z.number().int(),
    downloadUrl: z.url().describe("short-lived URL of the template's PDF"),
  })
  .meta({ id: 'Template' });

/** A field of a template: placed for a role; `value` is prefilled on every document made. */
export const templateFieldSchema = fieldSchema
  .omit({ signeeId: true, filledAt: true })
  .extend({ roleId: z.uuid() })
  .meta({ id: 'TemplateField' });

/** A template with its fields: what the template routes answer. */
export const templateWithFieldsSchema = z.object({
  template: templateSchema,
  fields: z.array(templateFieldSchema),
});

const recipientRole = signeeRoleSchema.optional();
const roleInput = z
  .object({ name: roleName, signingOrder: signingOrder.optional(), role: recipientRole })
  .strict();
// Someone has to sign or approve the documents a template makes.
const ROLES_ACT = 'at least one role must be a signer or an approver';
const rolesInput = z
  .array(roleInput)
  .min(1, 'at least one role is required')
  .max(MAX_ROLES, `at most ${MAX_ROLES} roles`)
  .refine(someoneActs, ROLES_ACT);
const settings = {
  signingMessage: z.string().max(5000).nullable().optional(),
  emailLanguage: z.enum(emailLanguages).optional(),
  signingOrderEnabled: z.boolean().nullable().optional(),
};

/** The `template` part of `POST /api/templates` (JSON). */
export const templatePartSchema = z
  .object({ name: z.string().trim().min(1).max(255), roles: rolesInput, ...settings })
  .strict();

/** The text parts of `POST /api/templates`, before `template` and `fields` are decoded. */
export const createTemplateParts = z.object({
  tenantId: z.uuid(),
  template: z
    .string()
    .describe(
      'JSON {name, roles: [{name, signingOrder?, role?}], signingMessage?, emailLanguage?, signingOrderEnabled?}; role: signer (default), approver or cc',
    ),
  fields: z
    .string()
    .optional()
    .describe(
      'JSON array of {role (0-based), type, page, x, y, width, height, required?, label?, options?, value?}',
    ),
  textTags: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: turn {{TYPE:N}} tags in the PDF text into fields, N the 1-based role'),
  file: pdfPart,
});

/** `POST /api/documents/{id}/save-as-template`. */
export const saveAsTemplateBody = z
  .object({
    name: z.string().trim().min(1).max(255),
    roles: z
      .array(z.union([roleName, roleInput]))
      .optional()
      .describe(
        "one per signee, in the signees' order: a name, or {name, signingOrder?, role?}; each role keeps its signee's role unless given",
      ),
  })
  .strict();

/** `PATCH /api/templates/{id}`: any of these; `roles` is the whole new list. */
export const updateTemplateBody = z
  .object({
    name: z.string().trim().min(1).max(255).optional(),
    ...settings,
    roles: z
      .array(
        z
          .object({
            id: z.uuid().optional(),
            name: roleName,
            signingOrder: signingOrder.optional(),
            role: recipientRole,
          })
          .strict(),
      )
      .min(1, 'at least one role is required')
      .max(MAX_ROLES, `at most ${MAX_ROLES} roles`)
      .refine(someoneActs, ROLES_ACT)
      .optional()
      .describe(
        'the whole list: an entry with an id keeps that role, a role left out goes with its fields',
      ),
    directLink: z.object({ enabled: z.boolean() }).strict().optional(),
  })
  .strict();

/** `PUT /api/templates/{id}/fields`: the template's whole set of fields. */
export const putTemplateFieldsBody = z.object({
  fields: z.array(templateFieldInputSchema).max(MAX_FIELDS, `at most ${MAX_FIELDS} fields`),
});

/** The answer of `PUT /api/templates/{id}/fields`. */
export const templateFieldsResponse = z.object({ fields: z.array(templateFieldSchema) });

/** `POST /api/templates/{id}/documents`: who fills each role, and what is prefilled. */
export const fromTemplateBody = z
  .object({
    name: z.string().trim().min(1).max(255).optional(),
    signees: z
      .array(
        z.object({
          role: z.union([z.string(), z.number().int()]),
          email: z.string(),
          name: z.string(),
          language: z.enum(emailLanguages).optional(),
          ...signeeAuthFields,
        }),
      )
      .describe(
        "one per role: role is the template role's name or 0-based index; each signee takes that role's recipient role (signer, approver or cc)",
      ),
    prefill: z
      .record(z.string(), z.union([z.string(), z.boolean()]))
      .optional()
      .describe('values by field label (any case): text, checkbox (true/false) or dropdown option'),
    externalId: externalIdSchema.optional(),
    metadata: metadataSchema.optional(),
    expiresAt: expiresAtInput.optional(),
    redirectUrl: redirectUrlSchema
      .optional()
      .describe('where the signing page sends each signee after they sign or decline'),
    reminders: remindersInput.optional(),
    send: z.boolean().optional().describe('true: send for signing in the same request'),
  })
  .strict();

/** The 201 answer of create-from-template. */
export const fromTemplateResponse = z.object({
  document: documentSchema,
  signees: z.array(signeeSchema),
  fields: z.array(fieldSchema),
  deliveries: z.array(deliverySchema).optional().describe('only when `send` was true'),
});

/** Path parameters of the routes under /api/templates/{templateId}. */
export const templateParams = z.object({ templateId: z.uuid() });

/** Query of the template listing. */
export const listTemplatesQuery = z.object({
  tenantId: z.uuid(),
  q: z.string().max(200).optional().describe("contained in the template's name, ignoring case"),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(200).optional(),
});

/** One page of the template listing. */
export const listTemplatesResponse = z.object({
  templates: z.array(templateSchema),
  nextCursor: z.string().nullable(),
});
