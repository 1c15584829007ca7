import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import type { App, AppDeps } from '../../http/types.js';
import { ACTIVITY_ACTIONS, listActivity, type ActivityBy } from './activity.js';
import { tenantParams } from './tenants.schemas.js';

/** The actor of an authenticated request, for the entries its changes write. */
export function activityByOf(request: FastifyRequest): ActivityBy {
  const principal = principalOf(request);
  return { userId: principal.userId, apiKeyId: principal.apiKeyId, ip: request.ip ?? null };
}

/** One entry of a tenant's activity log. */
export const activityEntrySchema = z
  .object({
    id: z.uuid(),
    action: z.enum(ACTIVITY_ACTIONS).describe('What changed; docs/api.md lists each details'),
    actor: z
      .object({
        userId: z.uuid(),
        email: z.string().describe('The account’s e-mail when it acted'),
        apiKeyId: z.uuid().nullable().describe('The API key used; null for a browser session'),
      })
      .meta({ id: 'ActivityActor' }),
    ip: z.string().nullable(),
    details: z
      .record(z.string(), z.unknown())
      .describe('What changed: ids, names, old and new values; never a secret'),
    createdAt: z.string(),
  })
  .meta({ id: 'ActivityEntry' });

const activityQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(200).optional(),
});

/** GET /api/tenants/{id}/activity (decisions §16). */
export function registerActivityRoutes(app: App, deps: AppDeps) {
  const d = { db: deps.db };
  app.get(
    '/api/tenants/:tenantId/activity',
    {
      onRequest: deps.auth.requireUser,
      schema: {
        operationId: 'listTenantActivity',
        summary: "List a tenant's activity",
        tags: ['tenants'],
        description:
          'Changes to the tenant (members, roles, invitations, webhooks, settings, logo, identity keys, templates) and API keys made or revoked by its members, newest first, keyset-paginated. Owners and admins only: a member gets 403 forbidden.',
        params: tenantParams,
        querystring: activityQuery,
        response: {
          200: z.object({
            activity: z.array(activityEntrySchema),
            nextCursor: z.string().nullable(),
          }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request) =>
      listActivity(d, {
        ...request.params,
        ...request.query,
        userId: principalOf(request).userId,
      }),
  );
}
