import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import type { App, AppDeps } from '../../http/types.js';
import * as deliveries from './deliveries.service.js';
import {
  deliveriesQuery,
  deliverySchema,
  redeliverParams,
  webhookParams,
} from './webhooks.schemas.js';

/** The delivery log of a webhook and redelivery (owner/admin). */
export function registerDeliveryRoutes(app: App, deps: AppDeps) {
  const onRequest = deps.auth.requireUser;
  const d: deliveries.DeliveryDeps = { db: deps.db, jobs: deps.jobs };
  const tags = ['webhooks'];

  app.get(
    '/api/tenants/:tenantId/webhooks/:webhookId/deliveries',
    {
      onRequest,
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "List a webhook's deliveries and their attempts",
        tags,
        description: 'Deliveries to this webhook, newest first, each with every attempt.',
        params: webhookParams,
        querystring: deliveriesQuery,
        response: {
          200: z.object({
            deliveries: z.array(deliverySchema),
            nextCursor: z.string().nullable(),
          }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request) =>
      deliveries.listWebhookDeliveries(d, {
        ...request.params,
        ...request.query,
        userId: principalOf(request).userId,
      }),
  );

  app.post(
    '/api/tenants/:tenantId/webhooks/:webhookId/deliveries/:eventId/redeliver',
    {
      onRequest,
      schema: {
        operationId: 'redeliverEvent',
        summary: 'Deliver an event to a webhook again',
        tags,
        description:
          'Starts a fresh series of up to three attempts for the event: same event id, same body.',
        params: redeliverParams,
        response: {
          202: z.object({ delivery: deliverySchema }),
          ...errorResponses(401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const delivery = await deliveries.redeliverEvent(d, {
        ...request.params,
        userId: principalOf(request).userId,
      });
      return reply.code(202).send({ delivery });
    },
  );
}
