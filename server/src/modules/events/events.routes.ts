import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import type { App, AppDeps } from '../../http/types.js';
import { listTenantEvents } from './events-feed.service.js';
import { eventEnvelopeSchema, eventsQuery } from './events.schemas.js';

/** The events feed: what webhooks delivered, readable in order for reconciliation. */
export function registerEventRoutes(app: App, deps: AppDeps) {
  app.get(
    '/api/events',
    {
      onRequest: deps.auth.requireUser,
      schema: {
        operationId: 'listEvents',
        summary: 'Read the event feed after a cursor',
        tags: ['webhooks'],
        description:
          "A tenant's events in order (occurredAt, then id). Page with after=<last event id> while hasMore.",
        querystring: eventsQuery,
        response: {
          200: z.object({ events: z.array(eventEnvelopeSchema), hasMore: z.boolean() }),
          ...errorResponses(401, 404, 422),
        },
      },
    },
    async (request) =>
      listTenantEvents({ db: deps.db }, { ...request.query, userId: principalOf(request).userId }),
  );
}
