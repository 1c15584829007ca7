import { activityByOf } from './activity.routes.js';
import { z } from 'zod';
import { principalOf } from '../../http/auth.js';
import { errorResponses } from '../../http/problem-schema.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { App, AppDeps } from '../../http/types.js';
import { AppError } from '../../lib/errors.js';
import { deleteLogo, getLogo, openPublicLogo, putLogo, type LogoDeps } from './logo.js';
import { LOGO_MAX_BYTES } from './logo-image.js';
import { logoSchema } from './branding.schemas.js';
import { tenantParams } from './tenants.schemas.js';

/** The media types a logo upload may declare; the bytes must be one of the two either way. */
const LOGO_TYPES = ['image/png', 'image/jpeg'];
const PUBLIC_PARAMS = z.object({ tenantId: z.string().max(36), file: z.string().max(40) });

/**
 * The tenant's logo (decisions §13): read by members, replaced and removed by owners and
 * admins; and its public copy under `/brand/`, for e-mails and signing pages.
 */
export function registerLogoRoutes(app: App, deps: AppDeps) {
  const d: LogoDeps = { db: deps.db, storage: deps.storage, publicUrl: deps.config.publicUrl };
  const onRequest = deps.auth.requireUser;
  const tags = ['tenants'];

  app.get(
    '/api/tenants/:tenantId/logo',
    {
      onRequest,
      schema: {
        operationId: 'getTenantLogo',
        summary: "Get a tenant's logo",
        tags,
        params: tenantParams,
        response: {
          200: z.object({ logo: logoSchema.nullable() }),
          ...errorResponses(401, 404),
        },
      },
    },
    async (request) => ({
      logo: await getLogo(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
      }),
    }),
  );

  app.delete(
    '/api/tenants/:tenantId/logo',
    {
      onRequest,
      schema: {
        operationId: 'deleteTenantLogo',
        summary: "Remove a tenant's logo",
        tags,
        params: tenantParams,
        response: { 204: z.null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await deleteLogo(d, {
        tenantId: request.params.tenantId,
        userId: principalOf(request).userId,
        by: activityByOf(request),
      });
      return reply.code(204).send(null);
    },
  );

  // The upload takes the image itself as its body: a scope of its own understands only the two
  // image types, at most LOGO_MAX_BYTES (413 beyond), and refuses any other body with 415.
  void app.register(async (scope: App) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(LOGO_TYPES, (_request, payload, done) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size <= LOGO_MAX_BYTES) return void chunks.push(chunk);
        // The rest is drained by the 413's lingering close (sendProblem), unread.
        payload.off('data', onData);
        done(tooLarge('this upload is larger'), undefined);
      };
      payload.on('data', onData);
      payload.once('end', () => {
        if (size <= LOGO_MAX_BYTES) done(null, Buffer.concat(chunks));
      });
      payload.once('error', (err) => done(err, undefined));
    });
    scope.addContentTypeParser('*', (request, _payload, done) =>
      done(
        new AppError(
          'unsupported_media_type',
          `Send the logo as the request body with Content-Type image/png or image/jpeg (not ${request.headers['content-type'] ?? 'none'}).`,
        ),
      ),
    );
    scope.put(
      '/api/tenants/:tenantId/logo',
      {
        onRequest: [onRequest, refuseLargeUpload],
        config: { binaryBody: { types: LOGO_TYPES, description: 'The logo: a PNG or JPEG file' } },
        schema: {
          operationId: 'putTenantLogo',
          summary: "Upload a tenant's logo",
          description: `The body is the image itself (PNG or JPEG, at most ${LOGO_MAX_BYTES / 1024} KiB, at most 4096 x 4096 pixels, one still frame). It is decoded and encoded again as a PNG without metadata, fitted within 400 x 120 pixels (never enlarged), and replaces the previous logo, whose URL stops working.`,
          tags,
          params: tenantParams,
          response: {
            200: z.object({ logo: logoSchema }),
            ...errorResponses(401, 403, 404, 413, 415, 422, 'service_unavailable'),
          },
        },
      },
      async (request) => {
        if (!Buffer.isBuffer(request.body)) {
          throw new AppError('unsupported_media_type', 'Send the logo as the request body.');
        }
        return {
          logo: await putLogo(d, {
            tenantId: request.params.tenantId,
            userId: principalOf(request).userId,
            by: activityByOf(request),
            bytes: request.body,
          }),
        };
      },
    );
  });

  // E-mails are opened anywhere, long after: loose per-address bounds, and an immutable cache
  // (each upload has a new name) so a mail client or proxy asks once.
  const publicLimit = createRateLimiter({ perSecond: 20, burst: 200, subject: 'this address' });
  app.get(
    '/brand/:tenantId/:file',
    {
      onRequest: async (request, reply) => publicLimit(`ip:${request.ip}`, reply),
      schema: { hide: true, params: PUBLIC_PARAMS },
    },
    async (request, reply) => {
      const stream = await openPublicLogo(d, request.params);
      return (
        reply
          .type('image/png')
          .header('cache-control', 'public, max-age=31536000, immutable')
          // Webmail pages on other origins show it: a same-origin policy would blank it there.
          .header('cross-origin-resource-policy', 'cross-origin')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(stream)
      );
    },
  );
}

function tooLarge(what: string) {
  return new AppError(
    'payload_too_large',
    `The logo must be at most ${LOGO_MAX_BYTES / 1024} KiB; ${what}.`,
  );
}

// A declared length over the limit is refused before a byte is read.
async function refuseLargeUpload(request: { headers: Record<string, unknown> }) {
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > LOGO_MAX_BYTES) {
    throw tooLarge(`this upload has ${Math.ceil(length / 1024)} KiB`);
  }
}
