// Shapes of the JSON API as the dashboard uses them: the server's own types, inferred from
// the schemas its routes answer with (server/src/api-types.ts), so a change there fails `tsc`
// here. Type-only: nothing of the server reaches the bundle.
import type * as Api from '../../../server/src/api-types.js';

export type Meta = Api.Meta;
export type Environment = Meta['environment'];
export type User = Api.User;
export type ApiKey = Api.ApiKey;
export type Role = Api.Role;
export type Tenant = Api.Tenant;
export type Member = Api.Member;
export type Invitation = Api.Invitation;
export type InvitationView = Api.InvitationView;
export type TenantSettings = Api.TenantSettings;
export type EmailLanguage = TenantSettings['emailLanguage'];
export type Webhook = Api.Webhook;
export type DeliveryAttempt = Api.WebhookAttempt;
/** A webhook delivery (not an invitation's: that is `Delivered`). */
export type Delivery = Api.WebhookDelivery;
export type DocumentStatus = Api.DocumentStatus;
export type SignetDocument = Api.SignetDocument;
export type Signee = Api.Signee;
/** One invitation's result in send-for-signing and remind. */
export type Delivered = Api.InvitationDelivery;
export type AuditEntry = Api.AuditEntry;
export type Folder = Api.Folder;

/** Roles in the order the dashboard offers them. */
export const ROLES: Role[] = ['owner', 'admin', 'member'];

/** Statuses in the order the documents filter offers them. */
export const DOCUMENT_STATUSES: DocumentStatus[] = [
  'draft',
  'in_process',
  'pending_seal',
  'seal_failed',
  'signed',
  'declined',
  'cancelled',
];
