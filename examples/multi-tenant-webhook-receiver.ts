// One webhook receiver for many tenants, on node:http. Each tenant's webhook has its own
// secret, so the handler is given a function instead of one secret: it receives the tenantId
// the delivery names and returns that tenant's secret, which then verifies the signature.
// Run with a JSON map of tenant ids to secrets (in a real application: a database lookup):
//   WEBHOOK_SECRETS='{"<tenant id>":"whsec_…","<other tenant id>":"whsec_…"}' PORT=4000 \
//     npx tsx examples/multi-tenant-webhook-receiver.ts
// and give every tenant's webhook the URL http://<host>:4000/webhooks/signet (plain http and
// local addresses need WEBHOOK_ALLOW_PRIVATE_URLS=true on the service; production needs https).
import { createServer } from 'node:http';
import {
  createMemoryEventStore,
  createNodeWebhookHandler,
  type WebhookSecretResolver,
} from '../sdk/src/index.js';

const secrets = new Map(
  Object.entries(JSON.parse(process.env.WEBHOOK_SECRETS ?? '{}') as Record<string, string>),
);
if (secrets.size === 0) {
  console.error('WEBHOOK_SECRETS is required: {"<tenant id>": "<its webhook secret>", …}');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 4000);

// Called with the tenantId of a delivery that is not verified yet: the secret it returns
// decides. Unknown tenant: return undefined (401 unknown_tenant). A lookup that fails for a
// while (the database is down): throw, the receiver answers 500 and the service retries.
// During a rotation return both secrets, [newSecret, oldSecret]: either one may match.
const secretOf: WebhookSecretResolver = async (tenantId) => secrets.get(tenantId);

const webhooks = createNodeWebhookHandler({
  secret: secretOf,
  // One store for every tenant is fine: event ids are unique across the service.
  store: createMemoryEventStore({ maxEntries: 10_000 }),
  onEvent: async (event, { attempt }) => {
    // The tenantId is covered by the signature checked with that tenant's secret: trust it.
    console.log(
      JSON.stringify({
        msg: 'webhook event',
        tenantId: event.tenantId,
        id: event.id,
        type: event.type,
        attempt,
        data: event.data,
      }),
    );
  },
  onError: (error, event) => {
    console.error(
      JSON.stringify({
        msg: 'webhook processing failed',
        tenantId: event.tenantId,
        id: event.id,
        error: String(error),
      }),
    );
  },
});

const server = createServer((req, res) => {
  if (req.url === '/webhooks/signet') {
    webhooks(req, res);
    return;
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
});

server.listen(port, () => {
  console.log(
    `receiving ${secrets.size} tenants' webhooks on http://localhost:${port}/webhooks/signet`,
  );
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
