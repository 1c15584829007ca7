import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  LogController,
  type FastifyRequest,
  type FastifyServerOptions,
  type preHandlerHookHandler,
} from 'fastify';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { ConfigError, type Config } from './config.js';
import type { Db } from './db/handle.js';
import { refreshDirectReads } from './db/prepared.js';
import { createAuth, sessionCookieSecret } from './http/auth.js';
import {
  findApiKeyWithUser,
  findSessionUser,
  touchApiKey,
} from './modules/accounts/accounts.repo.js';
import { handleFrameworkError, registerErrorHandlers } from './http/errors.js';
import { httpServerOptions, installConnectionGuard } from './http/connection-guard.js';
import { errorWithoutStack } from './lib/errors.js';
import { createIdempotency, requestFingerprint } from './http/idempotency.js';
import { registerInputChecks } from './http/input-checks.js';
import { openApiOptions } from './http/openapi.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { serializerCompiler } from './http/serializer.js';
import { withLogRedaction } from './http/log-redaction.js';
import { createRateLimiter } from './http/rate-limit.js';
import type { App, AppDeps } from './http/types.js';
import { registerWebAssets } from './http/web-assets.js';
import { registerEmbedScript } from './http/embed-script.js';
import { createJobRunner, type JobDefinition } from './jobs/runner.js';
import { createEndOfTurn } from './lib/end-of-turn.js';
import { MULTIPART_LIMITS } from './modules/documents/documents.schemas.js';
import { registerAccountRoutes } from './modules/accounts/accounts.routes.js';
import { createMailTransport, mailSendJob } from './modules/mail/mail.service.js';
import { registerMailboxRoutes } from './modules/mail/mailbox.routes.js';
import { registerMetaRoutes } from './modules/ops/meta.routes.js';
import { registerOpsRoutes } from './modules/ops/ops.routes.js';
import { registerTenantRoutes } from './modules/tenants/tenants.routes.js';
import { registerEventRoutes } from './modules/events/events.routes.js';
import { webhookAttemptJob } from './modules/webhooks/webhook-attempt-job.js';
import { createWebhookSender } from './modules/webhooks/webhook-sender.js';
import { registerWebhookRoutes } from './modules/webhooks/webhooks.routes.js';
import { registerDocumentRoutes } from './modules/documents/documents.routes.js';
import { registerFieldRoutes } from './modules/fields/fields.routes.js';
import { registerFolderRoutes } from './modules/folders/folders.routes.js';
import { startSearchIndexer } from './modules/documents/search-indexer.js';
import { registerEditingRoutes } from './modules/documents/editing.routes.js';
import { registerDocumentSummaryRoutes } from './modules/documents/summary.routes.js';
import { registerTextTagRoutes } from './modules/fields/text-tags.routes.js';
import { registerFileRoutes } from './modules/documents/files.routes.js';
import { registerTemplateRoutes } from './modules/templates/templates.routes.js';
import { registerDirectLinkRoutes } from './modules/templates/direct-links.routes.js';
import { registerBulkSendRoutes } from './modules/bulk-sends/bulk-sends.routes.js';
import { bulkSendJob } from './modules/bulk-sends/bulk-send.job.js';
import { expireJob } from './modules/documents/expiry.js';
import { remindJob } from './modules/documents/reminders.job.js';
import { createStorage } from './modules/storage/storage.js';
import { sealCertificateLoader } from './modules/sealing/load-certificate.js';
import { sealJob } from './modules/sealing/seal.job.js';
import { warmUpSealing } from './modules/sealing/seal-worker.js';
import { registerAuditCertificateRoutes } from './modules/sealing/audit-certificate.routes.js';
import { registerVerifyRoutes } from './modules/sealing/verify.routes.js';
import { registerSigningRoutes } from './modules/signing/signing.routes.js';

function isMultipart(request: FastifyRequest): boolean {
  return request.headers['content-type']?.toLowerCase().startsWith('multipart/') ?? false;
}

/** Builds the whole service on a migrated database: plugins, error handling, routes, jobs. */
export async function buildApp(options: {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions['logger'];
}): Promise<{ app: App; deps: AppDeps }> {
  const { config, db } = options;
  const app = Fastify({
    logger: withLogRedaction(options.logger ?? { level: config.logLevel }),
    // A request id only has to be unique: a random UUID costs a tenth of a time-ordered row id.
    genReqId: () => randomUUID(),
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    trustProxy: config.trustProxy,
    ...httpServerOptions(config.http),
    frameworkErrors: handleFrameworkError,
    // A failed validation is answered from its issues (error.validation); the Error carrying
    // them keeps Fastify's message but captures no stack, 5–10 µs of every 422.
    schemaErrorFormatter: (errors, dataVar) =>
      errorWithoutStack(
        errors.map((e) => `${dataVar}${e.instancePath ?? ''} ${e.message}`).join(', '),
      ),
  }).withTypeProvider<ZodTypeProvider>();
  const connectionGuard = installConnectionGuard(
    app.server,
    config.http,
    app.log,
    config.trustProxy,
  );

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Only JSON and multipart bodies are understood; anything else is 415, not a string to guess at.
  app.removeContentTypeParser('text/plain');
  // Bodyless POSTs (send-for-signing, remind, cancel) are often sent with a JSON content type
  // and nothing after it: that is no body, not malformed JSON. Anything else parses as before.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
  registerErrorHandlers(app);
  // Each request reads data committed before the turn of the event loop in which it arrived (the
  // SQLite read cache, db/prepared.ts).
  app.addHook('onRequest', (_request, _reply, done) => {
    refreshDirectReads(db.kysely);
    done();
  });
  registerInputChecks(app);
  app.decorateRequest('principal', null);
  app.decorateRequest('idempotency', null);
  const idempotency = createIdempotency(db, config.secretKey);
  // Authentication runs in route onRequest hooks, so the principal is known here; multipart
  // routes fingerprint their parsed parts themselves. A callback hook, so the common case (no
  // key) allocates no promise; so is the onSend hook below, which runs on every request.
  const applyIdempotency: preHandlerHookHandler = (request, reply, done) => {
    if (isMultipart(request)) return done();
    const fingerprint = () =>
      requestFingerprint([request.method, request.url, request.body ?? null]);
    // When begin() answers (a replay or a conflict) the request ends there: done is not called.
    idempotency.begin(request, reply, fingerprint).then((answered) => {
      if (!answered) done();
    }, done);
  };
  // Only POST routes get it, ahead of their own preHandlers as a global hook would run: a route
  // without preHandlers (every GET) skips the stage, and Fastify's hook runner with it.
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST')) return;
    route.preHandler = [applyIdempotency, ...[route.preHandler ?? []].flat()];
  });
  // Responses are written at the end of the turn of the event loop in which they completed,
  // together: on loopback (a benchmark, a reverse proxy on the same host) each write that wakes a
  // sleeping reader costs the writer a cross-CPU wake-up in the kernel, about 4 µs on a VM, and
  // writes made back to back share one. A response waits at most for the rest of its turn.
  const atEndOfTurn = createEndOfTurn((err) => app.log.error({ err }, 'writing a response failed'));
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (!request.idempotency) return atEndOfTurn(() => done(null, payload));
    idempotency
      .finish(request, reply.statusCode, payload)
      .then(() => atEndOfTurn(() => done(null, payload)), done);
  });

  await app.register(cookie, { secret: sessionCookieSecret(config.secretKey) });
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        'upgrade-insecure-requests': config.publicUrl.startsWith('https:') ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(swagger, openApiOptions(config.publicUrl));
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await registerWebAssets(app, { distDir: path.join(import.meta.dirname, '../../web/dist') });
  registerEmbedScript(app);

  const mailTransport = createMailTransport(config.smtpUrl);
  const storage = await createStorage(config);
  const certificate = sealCertificateLoader(config);
  // Production finds a wrong SEAL_P12_PASSWORD or an unreadable file now, not at the first seal.
  if (config.env === 'production') {
    await certificate().catch((err: unknown) => {
      throw new ConfigError(
        `SEAL_P12_PATH cannot be opened with SEAL_P12_PASSWORD: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
  }
  const webhookSender = createWebhookSender({
    allowPrivate: config.webhookAllowPrivateUrls,
    allowLoopback: config.webhookAllowLoopbackUrls,
    timeoutMs: config.webhookTimeoutMs,
  });
  const definitions: JobDefinition[] = [
    mailSendJob({
      db,
      storage,
      transport: mailTransport,
      mailFrom: config.mailFrom,
      retryBaseMs: config.mailRetryBaseMs,
    }),
    webhookAttemptJob({ db, config, sender: webhookSender, logger: app.log }),
    sealJob({
      db,
      storage,
      sandbox: config.env === 'sandbox',
      tsaUrl: config.tsaUrl,
      sealLevel: config.sealLevel,
      certificate,
      logger: app.log,
      publicUrl: config.publicUrl,
      attachmentLimit: config.mailAttachmentLimitBytes,
      // The runner is made from these definitions just below; sealing runs only after.
      wakeJobs: () => jobs.wake(),
    }),
    bulkSendJob({ db, config, wakeJobs: () => jobs.wake() }),
    expireJob({ db, publicUrl: config.publicUrl, wakeJobs: () => jobs.wake() }),
    remindJob({ db, config, wakeJobs: () => jobs.wake() }),
  ];
  const jobs = createJobRunner({ db, definitions, logger: app.log });
  const auth = createAuth({
    users: {
      findApiKey: (keyHash) => findApiKeyWithUser(db.kysely, keyHash),
      findSessionUser: (tokenHash, now) => findSessionUser(db.kysely, tokenHash, now),
      touchApiKey: (keyId, now) => touchApiKey(db.kysely, keyId, now),
    },
    config,
    rateLimit: createRateLimiter({
      perSecond: config.rateLimitPerSecond,
      burst: config.rateLimitBurst,
    }),
  });
  const deps: AppDeps = {
    config,
    db,
    auth,
    jobs,
    mailTransport,
    idempotency,
    storage,
    admitUpload: connectionGuard.admitUpload,
    // Only where this process runs the seal job: an API-only process (RUN_WORKERS=false)
    // never seals.
    warmUpSealing: () => {
      if (jobs.started()) warmUpSealing({ certificate, sandbox: config.env === 'sandbox' });
    },
  };

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerOpsRoutes(app, deps);
  registerMetaRoutes(app, deps);
  registerAccountRoutes(app, deps);
  registerTenantRoutes(app, deps);
  registerWebhookRoutes(app, deps);
  registerEventRoutes(app, deps);
  // @fastify/multipart adds hooks to every request of its scope (a close listener, a cleanup
  // pass): only the routes that take uploads live in it. Elsewhere a multipart body is 415.
  await app.register(async (uploads) => {
    await uploads.register(multipart, { limits: MULTIPART_LIMITS });
    uploads.addHook('onRequest', connectionGuard.admitUpload);
    registerDocumentRoutes(uploads, deps);
    registerVerifyRoutes(uploads, { ...deps, certificate });
    registerTextTagRoutes(uploads, deps);
    registerTemplateRoutes(uploads, deps);
    registerBulkSendRoutes(uploads, deps);
  });
  registerDirectLinkRoutes(app, deps);
  registerFileRoutes(app, deps);
  registerAuditCertificateRoutes(app, { ...deps, certificate });
  registerFieldRoutes(app, deps);
  registerFolderRoutes(app, deps);
  registerEditingRoutes(app, deps);
  registerDocumentSummaryRoutes(app, deps);
  registerSigningRoutes(app, deps);
  if (config.env === 'sandbox' && !config.smtpUrl) registerMailboxRoutes(app, deps);

  const stopSearchIndexer = startSearchIndexer(db, (err) =>
    app.log.error({ err }, 'indexing search text failed; retrying at the next batch'),
  );
  app.addHook('onClose', async () => {
    await stopSearchIndexer();
    await jobs.stop();
    mailTransport?.close();
    webhookSender.close();
  });
  return { app, deps };
}
