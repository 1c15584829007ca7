import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import type { App, AppDeps } from '../../http/types.js';
import {
  createTenantBody,
  memberParams,
  memberSchema,
  membershipSchema,
  patchSettingsBody,
  settingsSchema,
  tenantParams,
  tenantSchema,
  updateMemberBody,
} from './tenants.schemas.js';
import { registerInvitationRoutes } from './invitations.routes.js';
import { registerLogoRoutes } from './logo.routes.js';
import { registerIdentityKeyRoutes } from './identity-keys.routes.js';
import { registerActivityRoutes } from './activity.routes.js';
import * as tenants from './tenants.service.js';
import { activityByOf } from './activity.routes.js';

/** Tenants, memberships, invitations (registerInvitationRoutes), settings and credits. */
export function registerTenantRoutes(app: App, deps: AppDeps) {
  const onRequest = deps.auth.requireUser;
  const d = { db: deps.db, env: deps.config.env };
  const tags = ['tenants'];

  app.post(
    '/api/tenants',
    {
      onRequest,
      schema: {
        operationId: 'createTenant',
        summary: 'Create a tenant (you become its owner)',
        tags,
        body: createTenantBody,
        response: { 201: z.object({ tenant: tenantSchema }), ...errorResponses(401, 422) },
      },
    },
    async (request, reply) => {
      const tenant = await tenants.createTenant(d, {
        userId: principalOf(request).userId,
        name: request.body.name,
        by: activityByOf(request),
      });
      return reply.code(201).send({ tenant });
    },
  );

  app.get(
    '/api/tenants',
    {
      onRequest,
      schema: {
        operationId: 'listTenants',
        summary: 'List the tenants you belong to',
        tags,
        response: { 200: z.object({ tenants: z.array(tenantSchema) }), ...errorResponses(401) },
      },
    },
    async (request) => ({ tenants: await tenants.listTenants(d, principalOf(request).userId) }),
  );

  app.get(
    '/api/tenants/:tenantId',
    {
      onRequest,
      schema: {
        operationId: 'getTenant',
        summary: 'Get a tenant and your role in it',
        tags,
        description: "The caller's membership and role in the tenant (not tenant details).",
        params: tenantParams,
        response: { 200: z.object({ membership: membershipSchema }), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      membership: await tenants.getMembership(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
      }),
    }),
  );

  app.patch(
    '/api/tenants/:tenantId',
    {
      onRequest,
      schema: {
        operationId: 'renameTenant',
        summary: 'Rename a tenant (owners and admins)',
        tags,
        description:
          'Changes the name only; the activity log records tenant.renamed with the old and new names. A member is 403 forbidden.',
        params: tenantParams,
        body: createTenantBody,
        response: {
          200: z.object({ tenant: tenantSchema }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request) => ({
      tenant: await tenants.renameTenant(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
        name: request.body.name,
        by: activityByOf(request),
      }),
    }),
  );

  app.get(
    '/api/tenants/:tenantId/members',
    {
      onRequest,
      schema: {
        operationId: 'listMembers',
        summary: "List a tenant's members",
        tags,
        params: tenantParams,
        response: {
          200: z.object({ members: z.array(memberSchema) }),
          ...errorResponses(401, 404),
        },
      },
    },
    async (request) => ({
      members: await tenants.listMembers(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
      }),
    }),
  );

  app.patch(
    '/api/tenants/:tenantId/members/:userId',
    {
      onRequest,
      schema: {
        operationId: 'updateMember',
        summary: "Change a member's role",
        tags,
        params: memberParams,
        body: updateMemberBody,
        response: {
          200: z.object({ member: memberSchema }),
          ...errorResponses(401, 403, 404, 409, 422),
        },
      },
    },
    async (request) => ({
      member: await tenants.changeMemberRole(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
        memberId: request.params.userId,
        role: request.body.role,
        by: activityByOf(request),
      }),
    }),
  );

  app.delete(
    '/api/tenants/:tenantId/members/:userId',
    {
      onRequest,
      schema: {
        operationId: 'removeMember',
        summary: 'Remove a member',
        tags,
        description:
          'Removes a member (owner or admin), or, with your own user id, leaves the tenant (any role but its last owner).',
        params: memberParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await tenants.removeMember(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
        memberId: request.params.userId,
        by: activityByOf(request),
      });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/tenants/:tenantId/settings',
    {
      onRequest,
      schema: {
        operationId: 'getTenantSettings',
        summary: "Get a tenant's settings",
        tags,
        params: tenantParams,
        response: { 200: z.object({ settings: settingsSchema }), ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      settings: await tenants.getSettings(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
      }),
    }),
  );

  app.patch(
    '/api/tenants/:tenantId/settings',
    {
      onRequest,
      schema: {
        operationId: 'updateTenantSettings',
        summary: "Change a tenant's settings",
        tags,
        params: tenantParams,
        body: patchSettingsBody,
        response: {
          200: z.object({ settings: settingsSchema }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request) => ({
      settings: await tenants.updateSettings(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
        patch: request.body,
        by: activityByOf(request),
      }),
    }),
  );

  app.get(
    '/api/tenants/:tenantId/credits',
    {
      onRequest,
      schema: {
        operationId: 'getCredits',
        summary: "Get a tenant's signature credits",
        tags,
        params: tenantParams,
        response: { 200: z.object({ balance: z.number().int() }), ...errorResponses(401, 404) },
      },
    },
    async (request) =>
      tenants.getCredits(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
      }),
  );

  registerInvitationRoutes(app, deps);
  registerLogoRoutes(app, deps);
  registerIdentityKeyRoutes(app, deps);
  registerActivityRoutes(app, deps);
}
