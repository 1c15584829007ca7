import { Registry, collectDefaultMetrics, Counter } from 'prom-client';
import { z } from 'zod';
import { pingDatabase } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { errorResponses } from '../../http/problem-schema.js';
import type { App, AppDeps } from '../../http/types.js';
import { mailCounts } from '../mail/mail.service.js';
import { warmUpCounts } from '../sealing/seal-worker.js';
import { registerRequestMetrics } from './request-metrics.js';

/** Liveness, readiness and Prometheus metrics. */
export function registerOpsRoutes(app: App, deps: AppDeps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const recordRequest = registerRequestMetrics(registry);
  if (deps.db.walFlushes() !== null) {
    new Counter({
      name: 'signet_sqlite_wal_flushes_total',
      help: "Flushes of SQLite's write-ahead log; each covers every commit made before it began",
      registers: [registry],
      collect() {
        this.reset();
        this.inc(deps.db.walFlushes() ?? 0);
      },
    });
  }
  if (deps.db.walCheckpoints() !== null) {
    new Counter({
      name: 'signet_sqlite_wal_checkpoints_total',
      help: "Checkpoints of SQLite's write-ahead log into the database file, run off the event loop",
      registers: [registry],
      collect() {
        this.reset();
        this.inc(deps.db.walCheckpoints() ?? 0);
      },
    });
  }
  new Counter({
    name: 'signet_emails_queued_total',
    help: 'E-mails queued for delivery by this process',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(mailCounts.queued);
    },
  });
  new Counter({
    name: 'signet_emails_refused_total',
    help: "E-mails refused because their tenant's daily quota (MAIL_DAILY_LIMIT_PER_TENANT) was used up",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(mailCounts.refused);
    },
  });
  new Counter({
    name: 'signet_seal_warm_up_seals_total',
    help: 'Throwaway seals the sealing thread ran to warm up, once per thread, when a document was sent',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(warmUpCounts.seals);
    },
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    recordRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  const tags = ['operations'];
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness: the process answers',
        security: [],
        tags,
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers',
        security: [],
        tags,
        response: {
          200: z.object({ status: z.literal('ready') }),
          ...errorResponses('service_unavailable'),
        },
      },
    },
    async () => {
      if (!(await pingDatabase(deps.db))) {
        throw new AppError('service_unavailable', 'The database is unreachable.');
      }
      return { status: 'ready' as const };
    },
  );
  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        security: [],
        tags,
        response: {
          200: {
            description: 'The Prometheus text exposition format',
            content: { 'text/plain': { schema: z.string() } },
          },
        },
      },
    },
    async (_request, reply) => {
      reply.type(registry.contentType);
      return registry.metrics();
    },
  );
}
