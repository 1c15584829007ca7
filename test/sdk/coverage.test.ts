// Every operation of docs/openapi/openapi.json has a method in the SDK's client: the list of
// operations the client calls (sdk/src/endpoints.ts) must match the document, and each entry
// must be called by a client method. The hand-written resource types are tied to the
// document's schemas here too (checked by tsc), beside test/types/api-types.test.ts.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as Sdk from '../../sdk/src/index.js';
import { SIGNET_API_ENDPOINTS } from '../../sdk/src/index.js';
import type { components } from '../../sdk/src/openapi-types.js';

type Schemas = components['schemas'];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// Only the dashboard calls these: they need its session cookie, which an API key cannot get.
const SESSION_ONLY = ['logIn', 'logOut', 'createApiKey', 'listApiKeys', 'revokeApiKey'];

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const spec = JSON.parse(readFileSync('docs/openapi/openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};
const operations = Object.entries(spec.paths).flatMap(([p, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ id: op.operationId ?? '', method: method.toUpperCase(), path: p })),
);

describe('the SDK client covers the OpenAPI document', () => {
  it('has an endpoint for every operation but the session-only ones', () => {
    const missing = operations
      .filter((op) => !SESSION_ONLY.includes(op.id))
      .filter((op) => {
        const entry = (SIGNET_API_ENDPOINTS as Record<string, readonly [string, string]>)[op.id];
        return !entry || entry[0] !== op.method || entry[1] !== op.path;
      })
      .map((op) => `${op.id} (${op.method} ${op.path})`);
    expect(missing, 'operations without a client method').toEqual([]);
    expect(
      operations.every((op) => op.id),
      'every operation has an operationId',
    ).toBe(true);
  });

  it('calls no operation the document lacks, and excludes only operations that exist', () => {
    const ids = new Set(operations.map((op) => op.id));
    expect(Object.keys(SIGNET_API_ENDPOINTS).filter((id) => !ids.has(id))).toEqual([]);
    expect(SESSION_ONLY.filter((id) => !ids.has(id))).toEqual([]);
  });

  it('calls every endpoint from a client method', () => {
    const dir = 'sdk/src';
    const sources = readdirSync(dir)
      .filter((f) => /^client.*\.ts$/.test(f))
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
    const uncalled = Object.keys(SIGNET_API_ENDPOINTS).filter((id) => !sources.includes(`'${id}'`));
    expect(uncalled).toEqual([]);
  });

  it('ties the resource types to the document schemas (tsc)', () => {
    const checks: Record<string, true> = {
      SignetDocument: true as Same<Sdk.SignetDocument, Schemas['Document']>,
      Signee: true as Same<Sdk.Signee, Schemas['Signee']>,
      Field: true as Same<Sdk.Field, Schemas['Field']>,
      Tenant: true as Same<Sdk.Tenant, Schemas['Tenant']>,
      Membership: true as Same<Sdk.Membership, Schemas['Membership']>,
      Webhook: true as Same<Sdk.Webhook, Schemas['Webhook']>,
      WebhookDelivery: true as Same<Sdk.WebhookDelivery, Schemas['WebhookDelivery']>,
      Folder: true as Same<Sdk.Folder, Schemas['Folder']>,
      Template: true as Same<Sdk.Template, Schemas['Template']>,
      TemplateField: true as Same<Sdk.TemplateField, Schemas['TemplateField']>,
      BulkSend: true as Same<Sdk.BulkSend, Schemas['BulkSend']>,
      BulkSendRow: true as Same<Sdk.BulkSendRow, Schemas['BulkSendRow']>,
      IdentityKey: true as Same<Sdk.IdentityKey, Schemas['IdentityKey']>,
      TenantLogo: true as Same<Sdk.TenantLogo, Schemas['TenantLogo']>,
    };
    expect(Object.keys(checks)).toHaveLength(14);
  });
});
