import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { App, AppDeps } from '../../http/types.js';
import { sendWebPage } from '../../http/web-assets.js';
import { activityByOf } from './activity.routes.js';
import * as invitations from './invitations.service.js';
import {
  addMemberBody,
  invitationParams,
  invitationSchema,
  invitationTokenParams,
  invitationViewSchema,
  membershipSchema,
  tenantParams,
} from './tenants.schemas.js';

/**
 * Membership by consent: owners and admins invite an address, whose owner accepts through the
 * e-mailed link (`/invitations/{token}`). Registered by registerTenantRoutes.
 */
export function registerInvitationRoutes(app: App, deps: AppDeps) {
  const onRequest = deps.auth.requireUser;
  const d: invitations.InvitationDeps = {
    db: deps.db,
    publicUrl: deps.config.publicUrl,
    mailDailyLimitPerTenant: deps.config.mailDailyLimitPerTenant,
    env: deps.config.env,
  };
  const tags = ['tenants'];
  const callerOf = (request: FastifyRequest) => {
    const p = principalOf(request);
    const { userId, name, email, emailVerified } = p;
    return { userId, name, email, emailVerified, by: activityByOf(request) };
  };
  // The public view is reached with a link only; as the signing page's reads, bounded per
  // client address.
  const readLimit = createRateLimiter({ perSecond: 20, burst: 200, subject: 'this address' });
  const onPublicRead = async (request: FastifyRequest, reply: FastifyReply) => {
    // The answer names the tenant, the inviter and the invited address: no cache may keep it.
    reply.header('cache-control', 'no-store');
    readLimit(`ip:${request.ip}`, reply);
  };

  app.post(
    '/api/tenants/:tenantId/members',
    {
      onRequest,
      schema: {
        operationId: 'inviteMember',
        summary: 'Add or invite a member by e-mail',
        tags,
        description:
          'Invites an address (owner or admin, with a verified e-mail): 202 with the pending invitation, the same whether or not the address has an account. The membership is made when the invitee accepts. One address gets at most 3 invitations an hour and 10 a day from all tenants together (429 rate_limited with Retry-After, nothing changes); in production a tenant without credits invites only its own user’s address (402 insufficient_credits).',
        params: tenantParams,
        body: addMemberBody,
        response: {
          202: z.object({ invitation: invitationSchema }),
          ...errorResponses(
            401,
            'insufficient_credits',
            403,
            404,
            409,
            422,
            429,
            'invitation_limit_reached',
          ),
        },
      },
    },
    async (request, reply) => {
      const invitation = await invitations.inviteMember(d, {
        tenantId: request.params.tenantId,
        caller: callerOf(request),
        ...request.body,
      });
      request.log.info(
        { tenantId: invitation.tenantId, invitationId: invitation.id, role: invitation.role },
        'member invited',
      );
      return reply.code(202).send({ invitation });
    },
  );

  app.get(
    '/api/tenants/:tenantId/invitations',
    {
      onRequest,
      schema: {
        operationId: 'listInvitations',
        summary: "List a tenant's open invitations",
        tags,
        description: 'Pending, unexpired invitations, newest first (owner or admin).',
        params: tenantParams,
        response: {
          200: z.object({ invitations: z.array(invitationSchema) }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => ({
      invitations: await invitations.listInvitations(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
      }),
    }),
  );

  app.delete(
    '/api/tenants/:tenantId/invitations/:invitationId',
    {
      onRequest,
      schema: {
        operationId: 'revokeInvitation',
        summary: 'Revoke an invitation',
        tags,
        description: 'Revokes a pending invitation: its link stops working at once.',
        params: invitationParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await invitations.revokeInvitation(d, {
        by: activityByOf(request),
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
        invitationId: request.params.invitationId,
      });
      request.log.info(
        { tenantId: request.params.tenantId, invitationId: request.params.invitationId },
        'member invitation revoked',
      );
      return reply.code(204).send(null);
    },
  );

  // The page behind the e-mailed link is the dashboard's; it reads the JSON routes below.
  app.get('/invitations/:token', { schema: { hide: true } }, async (_request, reply) =>
    sendWebPage(reply, 'index'),
  );

  app.get(
    '/api/invitations/:token',
    {
      onRequest: onPublicRead,
      schema: {
        operationId: 'getInvitation',
        summary: 'Read an invitation by its token',
        tags,
        security: [],
        description: "An invitation as its link shows it; the link's token is the credential.",
        params: invitationTokenParams,
        response: { 200: z.object({ invitation: invitationViewSchema }), ...errorResponses(404) },
      },
    },
    async (request) => ({
      invitation: await invitations.viewInvitation(d, request.params.token),
    }),
  );

  app.post(
    '/api/invitations/:token/accept',
    {
      onRequest,
      schema: {
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation (session)',
        tags,
        description:
          'Accepts the invitation as the logged-in user, who must own the invited address (verified). Accepting again answers the same membership.',
        params: invitationTokenParams,
        response: {
          200: z.object({ membership: membershipSchema }),
          ...errorResponses(401, 403, 404, 410),
        },
      },
    },
    async (request) => {
      const membership = await invitations.acceptInvitation(d, {
        token: request.params.token,
        caller: callerOf(request),
      });
      request.log.info(
        { tenantId: membership.tenantId, userId: membership.userId },
        'member invitation accepted',
      );
      return { membership };
    },
  );
}
