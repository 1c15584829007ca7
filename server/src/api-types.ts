// The API's resource and answer types, inferred from the zod schemas the routes validate and
// serialize with: the one source of API types. The dashboard, the signing page and the tests
// import these (type-only, so nothing of the server reaches a browser bundle); the SDK keeps
// its own copies, which test/types/api-types.test.ts checks against these, so an API change
// fails `tsc` wherever a caller is stale.
import type { z } from 'zod';
import type { apiKeySchema, userSchema } from './modules/accounts/accounts.schemas.js';
import type {
  auditEntrySchema,
  deliverySchema as invitationDeliverySchema,
  documentDetailSchema,
  documentSchema,
  documentStatusSchema,
  documentWithSigneesSchema,
  listResponse,
  quickCreateResponse,
  sendResponse,
  signeeSchema,
} from './modules/documents/documents.schemas.js';
import type {
  addSigneeBody,
  editDocumentBody,
  editSigneeBody,
  signeeChangeResponse,
} from './modules/documents/editing.schemas.js';
import type { fieldSchema, putFieldsBody } from './modules/fields/fields.schemas.js';
import type {
  createFolderBody,
  folderSchema,
  updateFolderBody,
} from './modules/folders/folders.schemas.js';
import type { eventEnvelopeSchema } from './modules/events/events.schemas.js';
import type { metaSchema } from './modules/ops/meta.routes.js';
import type { documentSummarySchema } from './modules/documents/summary.routes.js';
import type { signeeRoleSchema } from './modules/documents/signee-roles.js';
import type { identityKeySchema } from './modules/tenants/identity-keys.routes.js';
import type { activityEntrySchema } from './modules/tenants/activity.routes.js';
import type {
  linkStatusResponse,
  signingStepResponse,
  signingViewResponse,
} from './modules/signing/signing.schemas.js';
import type {
  invitationSchema,
  invitationViewSchema,
  memberSchema,
  membershipSchema,
  roleSchema,
  settingsSchema,
  tenantSchema,
} from './modules/tenants/tenants.schemas.js';
import type { brandViewSchema, logoSchema } from './modules/tenants/branding.schemas.js';
import type {
  attemptSchema,
  deliverySchema,
  webhookSchema,
  webhookWithSecretSchema,
} from './modules/webhooks/webhooks.schemas.js';

import type {
  fromTemplateBody,
  fromTemplateResponse,
  listTemplatesResponse,
  putTemplateFieldsBody,
  templateFieldSchema,
  templateRoleSchema,
  templateSchema,
  templateWithFieldsSchema,
  updateTemplateBody,
} from './modules/templates/templates.schemas.js';
import type { directLinkViewResponse } from './modules/templates/direct-links.schemas.js';
import type {
  bulkSendRowSchema,
  bulkSendRowsResponse,
  bulkSendSchema,
} from './modules/bulk-sends/bulk-sends.schemas.js';

type Out<S extends z.ZodType> = z.output<S>;

/** GET /api/meta. */
export type Meta = Out<typeof metaSchema>;
/** A user as /api/auth/* answers it. */
export type User = Out<typeof userSchema>;
/** An API key as listed (never its secret). */
export type ApiKey = Out<typeof apiKeySchema>;
/** A role in a tenant. */
export type Role = Out<typeof roleSchema>;
/** A tenant as GET /api/tenants lists it. */
export type Tenant = Out<typeof tenantSchema>;
/** The caller's membership (GET /api/tenants/{id}). */
export type Membership = Out<typeof membershipSchema>;
/** A member of a tenant. */
export type Member = Out<typeof memberSchema>;
/** A pending invitation to a tenant. */
export type Invitation = Out<typeof invitationSchema>;
/** An invitation as its link shows it. */
export type InvitationView = Out<typeof invitationViewSchema>;
/** A tenant's settings. */
export type TenantSettings = Out<typeof settingsSchema>;
/** A tenant's logo (GET and PUT /api/tenants/{id}/logo). */
export type TenantLogo = Out<typeof logoSchema>;
/** A tenant's brand as GET /api/signing/{token} gives it to the page. */
export type SigningBrand = Out<typeof brandViewSchema>;
/** A webhook configuration. */
export type Webhook = Out<typeof webhookSchema>;
/** A webhook with its secret (create and rotate only). */
export type WebhookWithSecret = Out<typeof webhookWithSecretSchema>;
/** One attempt of a webhook delivery. */
export type WebhookAttempt = Out<typeof attemptSchema>;
/** A webhook delivery with its attempts. */
export type WebhookDelivery = Out<typeof deliverySchema>;
/** A document status. */
export type DocumentStatus = Out<typeof documentStatusSchema>;
/** A document. */
export type SignetDocument = Out<typeof documentSchema>;
/** A signee. */
export type Signee = Out<typeof signeeSchema>;
/** What a signee is asked to do: sign, approve, or be copied (cc). */
export type SigneeRole = Out<typeof signeeRoleSchema>;
/** A signee's verification method (decisions §13). */
export type SigneeAuth = Signee['auth'];
/** One entry of a tenant's activity log (decisions §16). */
export type ActivityEntry = Out<typeof activityEntrySchema>;
/** A tenant's public key for identity tokens (decisions §13). */
export type IdentityKey = Out<typeof identityKeySchema>;
/** A document with its signees, as most document routes answer. */
export type DocumentWithSignees = Out<typeof documentWithSigneesSchema>;
/** GET /api/documents/{id}: with its fields too. */
export type DocumentDetail = Out<typeof documentDetailSchema>;
/** A field on a document's page. */
export type Field = Out<typeof fieldSchema>;
/** PUT /api/documents/{id}/fields: the fields that replace a draft's, as sent. */
export type PutFieldsBody = z.input<typeof putFieldsBody>;
/** One invitation's result in send-for-signing and remind. */
export type InvitationDelivery = Out<typeof invitationDeliverySchema>;
/** POST /api/documents/quick-create. */
export type QuickCreateResult = Out<typeof quickCreateResponse>;
/** Send-for-signing and remind. */
export type SendForSigningResult = Out<typeof sendResponse>;
/** GET /api/documents. */
export type DocumentPage = Out<typeof listResponse>;
export type DocumentSummary = Out<typeof documentSummarySchema>;
/** One audit trail entry. */
export type AuditEntry = Out<typeof auditEntrySchema>;
/** The webhook event envelope. */
export type EventEnvelope = Out<typeof eventEnvelopeSchema>;
/** GET /api/signing/{token}. */
export type SigningView = Out<typeof signingViewResponse>;
/** POST /api/signing/{token}/sign and /decline. */
export type SigningStep = Out<typeof signingStepResponse>;
/** GET /api/signing/{token}/status. */
export type SigningLinkStatus = Out<typeof linkStatusResponse>;
/** PATCH /api/documents/{id}: what may change. */
export type DocumentEdit = z.input<typeof editDocumentBody>;
/** POST /api/documents/{id}/signees: one signee input. */
export type SigneeInput = z.input<typeof addSigneeBody>;
/** PATCH /api/documents/{id}/signees/{signeeId}: what may change. */
export type SigneeEdit = z.input<typeof editSigneeBody>;
/** The answer of the signee routes: the signee and the document as it now stands. */
export type SigneeChange = Out<typeof signeeChangeResponse>;
/** A folder of a tenant's documents. */
export type Folder = Out<typeof folderSchema>;
/** POST /api/tenants/{id}/folders. */
export type FolderInput = z.input<typeof createFolderBody>;
/** PATCH /api/tenants/{id}/folders/{folderId}. */
export type FolderEdit = z.input<typeof updateFolderBody>;
/** A template (decisions §11). */
export type Template = Out<typeof templateSchema>;
/** One of a template's roles. */
export type TemplateRole = Out<typeof templateRoleSchema>;
/** A field placed on a template for a role. */
export type TemplateField = Out<typeof templateFieldSchema>;
/** A template with its fields: what the template routes answer. */
export type TemplateWithFields = Out<typeof templateWithFieldsSchema>;
/** GET /api/templates. */
export type TemplatePage = Out<typeof listTemplatesResponse>;
/** PATCH /api/templates/{id}: what may change. */
export type TemplateEdit = z.input<typeof updateTemplateBody>;
/** PUT /api/templates/{id}/fields, as sent. */
export type PutTemplateFieldsBody = z.input<typeof putTemplateFieldsBody>;
/** POST /api/templates/{id}/documents, as sent. */
export type FromTemplateInput = z.input<typeof fromTemplateBody>;
/** POST /api/templates/{id}/documents. */
export type FromTemplateResult = Out<typeof fromTemplateResponse>;
/** GET /api/direct-links/{token}. */
export type DirectLinkView = Out<typeof directLinkViewResponse>;
/** A bulk send's progress. */
export type BulkSend = Out<typeof bulkSendSchema>;
/** One row of a bulk send. */
export type BulkSendRow = Out<typeof bulkSendRowSchema>;
/** GET /api/bulk-sends/{id}/rows. */
export type BulkSendRowsPage = Out<typeof bulkSendRowsResponse>;
