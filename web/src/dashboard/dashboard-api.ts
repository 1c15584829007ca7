import type * as Api from '../../../server/src/api-types.js';
import { api } from './api.js';

// Every route the dashboard calls, with what it sends and what it gets back, in the server's
// own types (server/src/api-types.ts): a caller names a route by its literal path, and a
// change to the API fails `tsc` at each stale caller. Beside sign/signing-api.ts, which does
// the same for the signing page.
type Routes = {
  'GET /api/meta': { res: Api.Meta };
  'GET /api/auth/me': { res: { user: Api.User } };
  'POST /api/auth/login': { body: { email: string; password: string }; res: { user: Api.User } };
  'POST /api/auth/signup': {
    body: { email: string; password: string; name: string; tenantName?: string };
    res: { user: Api.User };
  };
  'POST /api/auth/logout': { res: undefined };
  'POST /api/auth/resend-verification': { body: { email: string }; res: { message: string } };
  'POST /api/auth/password-reset': { body: { email: string }; res: { message: string } };
  'POST /api/auth/password-reset/confirm': {
    body: { token: string; password: string };
    res: { user: Api.User };
  };
  'GET /api/account/api-keys': { res: { apiKeys: Api.ApiKey[] } };
  'POST /api/account/api-keys': {
    body: { name: string };
    res: { apiKey: Api.ApiKey; secret: string };
  };
  'DELETE /api/account/api-keys/{keyId}': { res: undefined };
  'GET /api/tenants': { res: { tenants: Api.Tenant[] } };
  'POST /api/tenants': { body: { name: string }; res: { tenant: Api.Tenant } };
  'PATCH /api/tenants/{tenantId}': { body: { name: string }; res: { tenant: Api.Tenant } };
  'GET /api/tenants/{tenantId}/credits': { res: { balance: number } };
  'GET /api/tenants/{tenantId}/logo': { res: { logo: Api.TenantLogo | null } };
  'DELETE /api/tenants/{tenantId}/logo': { res: undefined };
  'GET /api/tenants/{tenantId}/settings': { res: { settings: Api.TenantSettings } };
  'PATCH /api/tenants/{tenantId}/settings': {
    // The cooldown may go as typed, so the service's own rule explains a bad value.
    body: Partial<Omit<Api.TenantSettings, 'reminderCooldownMinutes'>> & {
      reminderCooldownMinutes?: number | string;
    };
    res: { settings: Api.TenantSettings };
  };
  'GET /api/tenants/{tenantId}/members': { res: { members: Api.Member[] } };
  'POST /api/tenants/{tenantId}/members': {
    body: { email: string; role: Api.Role };
    res: { invitation: Api.Invitation };
  };
  'PATCH /api/tenants/{tenantId}/members/{userId}': {
    body: { role: Api.Role };
    res: { member: Api.Member };
  };
  'DELETE /api/tenants/{tenantId}/members/{userId}': { res: undefined };
  'GET /api/tenants/{tenantId}/invitations': { res: { invitations: Api.Invitation[] } };
  'DELETE /api/tenants/{tenantId}/invitations/{invitationId}': { res: undefined };
  'GET /api/invitations/{token}': { res: { invitation: Api.InvitationView } };
  'POST /api/invitations/{token}/accept': { res: { membership: Api.Membership } };
  'GET /api/tenants/{tenantId}/webhooks': { res: { webhooks: Api.Webhook[] } };
  'POST /api/tenants/{tenantId}/webhooks': { body: { url: string }; res: Api.WebhookWithSecret };
  'GET /api/tenants/{tenantId}/webhooks/{webhookId}': { res: { webhook: Api.Webhook } };
  'PATCH /api/tenants/{tenantId}/webhooks/{webhookId}': {
    body: { url?: string; active?: boolean };
    res: { webhook: Api.Webhook };
  };
  'DELETE /api/tenants/{tenantId}/webhooks/{webhookId}': { res: undefined };
  'POST /api/tenants/{tenantId}/webhooks/{webhookId}/rotate-secret': {
    res: Api.WebhookWithSecret;
  };
  'GET /api/tenants/{tenantId}/activity': {
    res: { activity: Api.ActivityEntry[]; nextCursor: string | null };
  };
  'GET /api/tenants/{tenantId}/webhooks/{webhookId}/deliveries': {
    res: { deliveries: Api.WebhookDelivery[]; nextCursor: string | null };
  };
  'POST /api/tenants/{tenantId}/webhooks/{webhookId}/deliveries/{eventId}/redeliver': {
    res: unknown;
  };
  'GET /api/documents': { res: Api.DocumentPage };
  'GET /api/documents/summary': { res: { summary: Api.DocumentSummary } };
  'POST /api/documents/quick-create': { form: FormData; res: Api.QuickCreateResult };
  'GET /api/documents/{documentId}': { res: Api.DocumentDetail };
  'GET /api/documents/{documentId}/fields': { res: { fields: Api.Field[] } };
  'PUT /api/documents/{documentId}/fields': {
    body: Api.PutFieldsBody;
    res: { fields: Api.Field[] };
  };
  'GET /api/documents/{documentId}/audit-trail': { res: { auditTrail: Api.AuditEntry[] } };
  'POST /api/documents/{documentId}/send-for-signing': { res: Api.SendForSigningResult };
  'POST /api/documents/{documentId}/remind': { res: Api.SendForSigningResult };
  'POST /api/documents/{documentId}/cancel': { res: Api.DocumentWithSignees };
  'POST /api/documents/{documentId}/seal': { res: Api.DocumentWithSignees };
  'DELETE /api/documents/{documentId}': { res: undefined };
  'PATCH /api/documents/{documentId}': { body: Api.DocumentEdit; res: Api.DocumentDetail };
  'POST /api/documents/{documentId}/signees': { body: Api.SigneeInput; res: Api.SigneeChange };
  'PATCH /api/documents/{documentId}/signees/{signeeId}': {
    body: Api.SigneeEdit;
    res: Api.SigneeChange;
  };
  'DELETE /api/documents/{documentId}/signees/{signeeId}': { res: undefined };
  'POST /api/documents/{documentId}/save-as-template': {
    body: { name: string; roles?: string[] };
    res: Api.TemplateWithFields;
  };
  'GET /api/templates': { res: Api.TemplatePage };
  'POST /api/templates': { form: FormData; res: Api.TemplateWithFields };
  'GET /api/templates/{templateId}': { res: Api.TemplateWithFields };
  'PATCH /api/templates/{templateId}': { body: Api.TemplateEdit; res: Api.TemplateWithFields };
  'PUT /api/templates/{templateId}/fields': {
    body: Api.PutTemplateFieldsBody;
    res: { fields: Api.TemplateField[] };
  };
  'DELETE /api/templates/{templateId}': { res: undefined };
  'POST /api/templates/{templateId}/documents': {
    body: Api.FromTemplateInput;
    res: Api.FromTemplateResult;
  };
  'POST /api/templates/{templateId}/bulk-sends': {
    form: FormData;
    res: { bulkSend: Api.BulkSend };
  };
  'GET /api/templates/{templateId}/bulk-sends': {
    res: { bulkSends: Api.BulkSend[]; nextCursor: string | null };
  };
  'GET /api/bulk-sends/{bulkSendId}': { res: { bulkSend: Api.BulkSend } };
  'GET /api/bulk-sends/{bulkSendId}/rows': { res: Api.BulkSendRowsPage };
  'GET /api/tenants/{tenantId}/folders': {
    res: { folders: Api.Folder[]; nextCursor: string | null };
  };
  'POST /api/tenants/{tenantId}/folders': { body: Api.FolderInput; res: { folder: Api.Folder } };
  'PATCH /api/tenants/{tenantId}/folders/{folderId}': {
    body: Api.FolderEdit;
    res: { folder: Api.Folder };
  };
  'DELETE /api/tenants/{tenantId}/folders/{folderId}': { res: undefined };
};

/** A route the dashboard may call, as `METHOD /path/{param}`. */
export type Route = keyof Routes;

type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | ParamNames<Rest>
  : never;
type Options<K extends Route> = ([ParamNames<K>] extends [never]
  ? { params?: undefined }
  : { params: Record<ParamNames<K>, string> }) &
  (Routes[K] extends { body: infer B } ? { json: B } : { json?: undefined }) &
  (Routes[K] extends { form: FormData } ? { form: FormData } : { form?: undefined }) & {
    query?: URLSearchParams;
  };

/**
 * Calls a route with the session cookie and returns its answer, typed by the route; throws the
 * shared ApiError on a problem answer.
 */
export function call<K extends Route>(
  route: K,
  ...[options]: [ParamNames<K>] extends [never]
    ? Routes[K] extends { body: unknown } | { form: FormData }
      ? [Options<K>]
      : [Options<K>?]
    : [Options<K>]
): Promise<Routes[K]['res']> {
  const [method, template] = route.split(' ') as [
    'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    string,
  ];
  const params = (options?.params ?? {}) as Record<string, string>;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(params[name]),
  );
  const query = options?.query?.toString();
  return api<Routes[K]['res']>(query ? `${path}?${query}` : path, {
    method,
    json: options?.json,
    form: options?.form,
  });
}
