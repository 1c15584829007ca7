import { describe, expect, it } from 'vitest';
import type * as Sdk from '../../sdk/src/index.js';
import type * as Api from '../../server/src/api-types.js';

// The SDK ships on its own, so it keeps its resource types in its own files; these checks tie
// each of them to the server's schemas (server/src/api-types.ts). `tsc` (`npm run check`)
// checks them: an API change that leaves the SDK stale fails there.

/** true when each type is assignable to the other: the same fields, optionality and values. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const checks: { [name: string]: true } = {
  Tenant: true as Same<Sdk.Tenant, Api.Tenant>,
  Membership: true as Same<Sdk.Membership, Api.Membership>,
  TenantLogo: true as Same<Sdk.TenantLogo, Api.TenantLogo>,
  SigningBrand: true as Same<Sdk.SigningBrand, Api.SigningBrand>,
  SignetDocument: true as Same<Sdk.SignetDocument, Api.SignetDocument>,
  Signee: true as Same<Sdk.Signee, Api.Signee>,
  SigneeRole: true as Same<Sdk.SigneeRole, Api.SigneeRole>,
  DocumentWithSignees: true as Same<Sdk.DocumentWithSignees, Api.DocumentWithSignees>,
  DocumentDetail: true as Same<Sdk.DocumentDetail, Api.DocumentDetail>,
  Field: true as Same<Sdk.Field, Api.Field>,
  InvitationDelivery: true as Same<Sdk.InvitationDelivery, Api.InvitationDelivery>,
  QuickCreateResult: true as Same<Sdk.QuickCreateResult, Api.QuickCreateResult>,
  SendForSigningResult: true as Same<Sdk.SendForSigningResult, Api.SendForSigningResult>,
  DocumentPage: true as Same<Sdk.DocumentPage, Api.DocumentPage>,
  DocumentSummary: true as Same<Sdk.DocumentSummary, Api.DocumentSummary>,
  Webhook: true as Same<Sdk.Webhook, Api.Webhook>,
  WebhookWithSecret: true as Same<Sdk.WebhookWithSecret, Api.WebhookWithSecret>,
  WebhookAttempt: true as Same<Sdk.WebhookAttempt, Api.WebhookAttempt>,
  WebhookDelivery: true as Same<Sdk.WebhookDelivery, Api.WebhookDelivery>,
  Folder: true as Same<Sdk.Folder, Api.Folder>,
  SigneeChange: true as Same<Sdk.SigneeChange, Api.SigneeChange>,
  DocumentEdit: true as Same<Sdk.DocumentEdit, Api.DocumentEdit>,
  SigneeEdit: true as Same<Sdk.SigneeEdit, Api.SigneeEdit>,
  Template: true as Same<Sdk.Template, Api.Template>,
  TemplateRole: true as Same<Sdk.TemplateRole, Api.TemplateRole>,
  TemplateField: true as Same<Sdk.TemplateField, Api.TemplateField>,
  TemplateWithFields: true as Same<Sdk.TemplateWithFields, Api.TemplateWithFields>,
  TemplatePage: true as Same<Sdk.TemplatePage, Api.TemplatePage>,
  TemplateEdit: true as Same<Sdk.TemplateEdit, Api.TemplateEdit>,
  FromTemplateInput: true as Same<Sdk.FromTemplateInput, Api.FromTemplateInput>,
  FromTemplateResult: true as Same<Sdk.FromTemplateResult, Api.FromTemplateResult>,
  BulkSend: true as Same<Sdk.BulkSend, Api.BulkSend>,
  BulkSendRow: true as Same<Sdk.BulkSendRow, Api.BulkSendRow>,
  BulkSendRowsPage: true as Same<Sdk.BulkSendRowsPage, Api.BulkSendRowsPage>,
  SigneeAuth: true as Same<Sdk.SigneeAuth, Api.SigneeAuth>,
  IdentityKey: true as Same<Sdk.IdentityKey, Api.IdentityKey>,
};

describe('the SDK types are the API types', () => {
  it('are checked by tsc for every resource and answer', () => {
    expect(Object.keys(checks)).toHaveLength(36);
  });
});
