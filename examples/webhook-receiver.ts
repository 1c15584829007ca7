// A Signet webhook receiver on node:http. Run with:
//   WEBHOOK_SECRET=<secret from POST /api/tenants/{id}/webhooks> PORT=4000 npx tsx examples/webhook-receiver.ts
// and configure http://<host>:4000/webhooks/signet as the callback URL (plain http and
// local addresses need WEBHOOK_ALLOW_PRIVATE_URLS=true on the service; production needs https).
import { createServer } from 'node:http';
import { createMemoryEventStore, createNodeWebhookHandler } from '../sdk/src/index.js';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error('WEBHOOK_SECRET is required');
  process.exit(1);
}
// 4000, not the service's 3000, so both run side by side on one machine.
const port = Number(process.env.PORT ?? 4000);

const webhooks = createNodeWebhookHandler({
  secret,
  // In-memory dedupe is lost on restart; a real receiver stores processed ids in its database.
  store: createMemoryEventStore({ maxEntries: 10_000 }),
  onEvent: async (event, { attempt }) => {
    // Opt-in events (signee.viewed, email.failed, …: tenant setting webhookEvents) carry data
    // of their own; this example logs them whole.
    if (event.type !== 'document.status_changed' && event.type !== 'signee.status_changed') {
      console.log(
        JSON.stringify({
          msg: 'webhook event',
          id: event.id,
          type: event.type,
          attempt,
          data: event.data,
        }),
      );
      return;
    }
    // Deliveries may arrive out of order (spec, Events rule 2): compare changedAt with what
    // you stored, or fetch GET /api/documents/{id}, instead of trusting arrival order.
    console.log(
      JSON.stringify({
        msg: 'webhook event',
        id: event.id,
        type: event.type,
        attempt,
        tenantId: event.tenantId,
        documentId: event.data.documentId,
        signeeId: event.data.signeeId ?? null,
        oldStatus: event.data.oldStatus,
        newStatus: event.data.newStatus,
        changedAt: event.data.changedAt,
      }),
    );
  },
  onError: (error, event) => {
    // The service retries after our 500; this is where you would alert.
    console.error(
      JSON.stringify({ msg: 'webhook processing failed', id: event.id, error: String(error) }),
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
  console.log(`webhook receiver listening on http://localhost:${port}/webhooks/signet`);
});

// Let in-flight deliveries finish on Ctrl-C or a container stop.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
