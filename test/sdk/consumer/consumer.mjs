// Plain node, no TypeScript, the SDK from its packed tarball: what an integrator runs. Talks to
// the service at BASE_URL with API_KEY, receives both tenants' webhooks on one node:http
// receiver (a secret per tenant) and prints what it saw as JSON for the test to check.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import {
  SignetApiError,
  createExpressWebhookHandler,
  createMemoryEventStore,
  createSignetClient,
  verifyWebhook,
} from '@signet/sdk';

const client = createSignetClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
const pdf = readFileSync(process.env.PDF);
const secrets = new Map();
const events = [];
const deliveries = [];

const handler = createExpressWebhookHandler({
  secret: async (tenantId) => secrets.get(tenantId),
  store: createMemoryEventStore(),
  onEvent: (event) => {
    events.push(event);
  },
});
// Keeps each raw body too, to try it against the wrong tenant's secret afterwards.
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    deliveries.push({ body, signature: req.headers['x-service-signature'] });
    handler(Object.assign(req, { body }), res);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const receiver = `http://127.0.0.1:${server.address().port}`;

const out = { meta: await client.service.meta(), tenants: {} };
for (const name of ['Acme', 'Globex']) {
  const tenant = await client.tenants.create({ name });
  const { secret } = await client.webhooks.create(tenant.id, { url: `${receiver}/${name}` });
  secrets.set(tenant.id, secret);
  const created = await client.documents.quickCreate({
    tenantId: tenant.id,
    file: pdf,
    fileName: 'contract.pdf',
    name: `${name} contract`,
    signees: [{ email: `signer@${name.toLowerCase()}.example`, name: 'Sam Signer' }],
    externalId: `crm-${name}`,
  });
  const documentId = created.document.id;
  const sent = await client.documents.sendForSigning(documentId);
  const listed = await client.documents.list({ tenantId: tenant.id, externalId: `crm-${name}` });
  const pdfBytes = await client.documents.download(documentId);
  out.tenants[name] = {
    id: tenant.id,
    documentId,
    status: sent.document.status,
    listed: listed.documents.map((d) => d.id),
    trail: (await client.documents.auditTrail(documentId)).map((e) => e.action),
    settings: Object.keys(await client.tenants.settings(tenant.id)).length,
    download: Buffer.from(pdfBytes.subarray(0, 5)).toString('latin1'),
    cancelled: (await client.documents.cancel(documentId, { reason: 'test over' })).document.status,
  };
}

// Each tenant's send and cancel: four document.status_changed events.
const deadline = Date.now() + 15_000;
while (events.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
out.events = events.map((e) => ({ tenantId: e.tenantId, type: e.type, to: e.data.newStatus }));

// A delivery of the first tenant, checked against the second tenant's secret: refused.
const [acme, globex] = [...secrets.keys()];
const first = deliveries.find((d) => JSON.parse(d.body).tenantId === acme);
out.wrongSecret = verifyWebhook({
  rawBody: first.body,
  signatureHeader: first.signature,
  secret: secrets.get(globex),
});
out.swappedResolver = await verifyWebhook({
  rawBody: first.body,
  signatureHeader: first.signature,
  secret: (tenantId) => secrets.get(tenantId === acme ? globex : acme),
});
out.rightResolver = (
  await verifyWebhook({
    rawBody: first.body,
    signatureHeader: first.signature,
    secret: (tenantId) => secrets.get(tenantId),
  })
).ok;

try {
  await client.documents.get('00000000-0000-4000-8000-000000000000');
} catch (error) {
  out.notFound = { isApiError: error instanceof SignetApiError, status: error.status };
}
server.close();
console.log(JSON.stringify(out));
