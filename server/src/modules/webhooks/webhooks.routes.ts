import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import type { App, AppDeps } from '../../http/types.js';
import { registerDeliveryRoutes } from './deliveries.routes.js';
import {
  createWebhookBody,
  tenantWebhooksParams,
  updateWebhookBody,
  webhookParams,
  webhookSchema,
  webhookWithSecretSchema,
} from './webhooks.schemas.js';
import * as webhooks from './webhooks.service.js';
import { activityByOf } from '../tenants/activity.routes.js';

/** Webhook configurations of a tenant (owner/admin), plus their delivery log. */
export function registerWebhookRoutes(app: App, deps: AppDeps) {
  const onRequest = deps.auth.requireUser;
  const d: webhooks.WebhookDeps = {
    db: deps.db,
    secretKey: deps.config.secretKey,
    urlPolicy: {
      allowPrivate: deps.config.webhookAllowPrivateUrls,
      allowLoopback: deps.config.webhookAllowLoopbackUrls,
    },
  };
  const tags = ['webhooks'];

  app.post(
    '/api/tenants/:tenantId/webhooks',
    {
      onRequest,
      schema: {
        operationId: 'createWebhook',
        summary: 'Register a webhook endpoint',
        tags,
        description: 'Adds a callback URL. The signing secret is in this response only.',
        params: tenantWebhooksParams,
        body: createWebhookBody,
        response: { 201: webhookWithSecretSchema, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const created = await webhooks.createWebhook(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
        by: activityByOf(request),
        ...request.body,
      });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/tenants/:tenantId/webhooks',
    {
      onRequest,
      schema: {
        operationId: 'listWebhooks',
        summary: "List a tenant's webhooks",
        tags,
        params: tenantWebhooksParams,
        response: {
          200: z.object({ webhooks: z.array(webhookSchema) }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => ({
      webhooks: await webhooks.listWebhooks(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
      }),
    }),
  );

  app.get(
    '/api/tenants/:tenantId/webhooks/:webhookId',
    {
      onRequest,
      schema: {
        operationId: 'getWebhook',
        summary: 'Get a webhook',
        tags,
        params: webhookParams,
        response: { 200: z.object({ webhook: webhookSchema }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({
      webhook: await webhooks.getWebhook(d, {
        ...request.params,
        userId: principalOf(request).userId,
      }),
    }),
  );

  app.patch(
    '/api/tenants/:tenantId/webhooks/:webhookId',
    {
      onRequest,
      schema: {
        operationId: 'updateWebhook',
        summary: 'Change a webhook',
        tags,
        description: 'Changes url and/or active. Pending retries use the new values.',
        params: webhookParams,
        body: updateWebhookBody,
        response: {
          200: z.object({ webhook: webhookSchema }),
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request) => ({
      webhook: await webhooks.updateWebhook(d, {
        ...request.params,
        userId: principalOf(request).userId,
        by: activityByOf(request),
        patch: request.body,
      }),
    }),
  );

  app.delete(
    '/api/tenants/:tenantId/webhooks/:webhookId',
    {
      onRequest,
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook',
        tags,
        params: webhookParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.deleteWebhook(d, {
        ...request.params,
        userId: principalOf(request).userId,
        by: activityByOf(request),
      });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/tenants/:tenantId/webhooks/:webhookId/rotate-secret',
    {
      onRequest,
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: "Rotate a webhook's signing secret",
        tags,
        description:
          'Replaces the signing secret at once; update the receiver. The new secret is in this response only.',
        params: webhookParams,
        response: { 200: webhookWithSecretSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) =>
      webhooks.rotateWebhookSecret(d, {
        ...request.params,
        userId: principalOf(request).userId,
        by: activityByOf(request),
      }),
  );

  registerDeliveryRoutes(app, deps);
}
