import { activityByOf } from './activity.routes.js';
import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import type { App, AppDeps } from '../../http/types.js';
import { getIdentityKeys, MAX_IDENTITY_KEYS, putIdentityKeys } from './identity-keys.js';
import { tenantParams } from './tenants.schemas.js';

/** A public key as registered and answered. */
export const identityKeySchema = z
  .object({
    kty: z.enum(['RSA', 'EC']),
    kid: z.string(),
    alg: z.enum(['RS256', 'ES256']).optional(),
    use: z.literal('sig').optional(),
    n: z.string().optional().describe('RSA modulus (at least 2048 bits)'),
    e: z.string().optional().describe('RSA exponent'),
    crv: z.literal('P-256').optional(),
    x: z.string().optional(),
    y: z.string().optional(),
  })
  .meta({ id: 'IdentityKey' });

const keysResponse = z.object({ keys: z.array(identityKeySchema) });

const putBody = z
  .object({
    keys: z
      .array(z.record(z.string(), z.unknown()))
      .max(MAX_IDENTITY_KEYS, `at most ${MAX_IDENTITY_KEYS} keys`)
      .describe(
        'the whole new list of public JWKs (RSA of at least 2048 bits or EC P-256), each with its own kid; [] removes them all. A key with private members (d, p, q, …) is refused',
      ),
  })
  .strict();

/**
 * A tenant's identity keys (decisions §13): the public keys its application signs identity
 * tokens with, which the signing page's `?identity=` accepts. Never fetched from anywhere.
 */
export function registerIdentityKeyRoutes(app: App, deps: AppDeps) {
  const onRequest = deps.auth.requireUser;
  const tags = ['tenants'];

  app.get(
    '/api/tenants/:tenantId/identity-keys',
    {
      onRequest,
      schema: {
        operationId: 'getIdentityKeys',
        summary: "List the tenant's identity keys",
        description: 'Any member may read them: they are public keys.',
        tags,
        params: tenantParams,
        response: { 200: keysResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      keys: await getIdentityKeys(deps.db, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
      }),
    }),
  );

  app.put(
    '/api/tenants/:tenantId/identity-keys',
    {
      onRequest,
      schema: {
        operationId: 'putIdentityKeys',
        summary: "Replace the tenant's identity keys",
        description:
          'Owners and admins. The public keys (JWK) whose signatures make an identity token valid: a signing URL opened with ?identity=<JWT> (RS256 or ES256, header kid naming one of these keys, aud the signee id, email the signee address, exp at most 10 minutes away, iat, a jti used once) opens the link without a code and puts iss, sub and kid on the audit certificate (docs/signing.md).',
        tags,
        params: tenantParams,
        body: putBody,
        response: { 200: keysResponse, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => ({
      keys: await putIdentityKeys(deps.db, {
        by: activityByOf(request),
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
        keys: request.body.keys,
      }),
    }),
  );
}
