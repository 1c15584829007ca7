import type { onRequestHookHandler } from 'fastify';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { Db } from '../db/handle.js';
import type { JobRunner } from '../jobs/runner.js';
import type { MailTransport } from '../modules/mail/mail.service.js';
import type { Auth } from './auth.js';
import type { Idempotency } from './idempotency.js';
import type { Storage } from '../modules/storage/storage.js';

/** The Fastify instance with zod schemas as the type provider. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What route modules receive: explicit wiring, no ambient state. */
export type AppDeps = {
  config: Config;
  db: Db;
  auth: Auth;
  jobs: JobRunner;
  mailTransport: MailTransport;
  idempotency: Idempotency;
  storage: Storage;
  /**
   * Starts and warms the sealing thread (seal-worker.ts) if this process runs jobs: a sent
   * document will need it.
   */
  warmUpSealing: () => void;
  /**
   * The connection guard's upload gate (connection-guard.ts), for upload routes registered
   * outside the app's upload scope (a signee's attachments); absent in apps built without one.
   */
  admitUpload?: onRequestHookHandler;
};
