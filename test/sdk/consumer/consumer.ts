// A TypeScript consumer of the packed SDK: type-checked against its .d.ts alone (strict, no
// skipLibCheck). The @ts-expect-error lines fail the check if the types went missing (any).
import {
  createNodeWebhookHandler,
  createMemoryEventStore,
  createSignetClient,
  verifyWebhook,
  type AuditEntry,
  type SignetDocument,
  type TenantSettings,
  type WebhookEvent,
  type WebhookSecretResolver,
} from '@signet/sdk';

const client = createSignetClient({ baseUrl: 'https://signet.example.com', apiKey: 'sk_test' });

export async function run(tenantId: string): Promise<void> {
  const page = await client.documents.list({ tenantId, status: 'signed' });
  const first: SignetDocument | undefined = page.documents[0];
  if (!first) return;
  const trail: AuditEntry[] = await client.documents.auditTrail(first.id);
  const settings: TenantSettings = await client.tenants.settings(tenantId);
  const sealed: Uint8Array = await client.documents.download(first.id);
  console.log(trail.length, settings, sealed.byteLength, first.signingGroupsEnabled);
  // @ts-expect-error a status the API does not have
  await client.documents.list({ tenantId, status: 'finished' });
  // @ts-expect-error remind takes a document id
  await client.documents.remind(42);
}

const secretOf: WebhookSecretResolver = async (tenantId) => process.env[`SECRET_${tenantId}`];
createNodeWebhookHandler({
  secret: secretOf,
  store: createMemoryEventStore(),
  onEvent: (event: WebhookEvent) => {
    if (event.type === 'document.status_changed') console.log(event.data.newStatus);
  },
});

export async function check(rawBody: string, signatureHeader: string): Promise<boolean> {
  const fixed = verifyWebhook({ rawBody, signatureHeader, secret: 'whsec_x' });
  const perTenant = await verifyWebhook({ rawBody, signatureHeader, secret: secretOf });
  // @ts-expect-error a secret is a string or a function, not a number
  verifyWebhook({ rawBody, signatureHeader, secret: 42 });
  return fixed.ok && perTenant.ok;
}
