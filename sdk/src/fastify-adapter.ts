// Fastify adapter. Fastify parses JSON before handlers run and discards the bytes, which
// makes signatures unverifiable; this plugin swaps in a raw-buffer parser for its own
// routes only, leaving the rest of the application's JSON parsing alone.
import type { FastifyPluginAsync } from 'fastify';
import { checkMaxBodyBytes } from './node-adapter.js';
import { assertReceiverOptions, handleWebhook, type WebhookReceiverOptions } from './receiver.js';

export type FastifyWebhookPluginOptions = WebhookReceiverOptions & {
  /** Route path, below the `prefix` given to `register`. Default `/`. */
  path?: string;
  /** Largest accepted body in bytes; a larger one answers 413. Default 1 MiB. */
  maxBodyBytes?: number;
};

/**
 * What the plugin needs of a Fastify instance. Declared here so that the SDK's published
 * types do not import fastify's: it is an optional peer, absent from most installs.
 */
export type FastifyLikeInstance = {
  removeAllContentTypeParsers(): unknown;
  addContentTypeParser: (...args: never[]) => unknown;
  post: (...args: never[]) => unknown;
};

// The plugin itself, typed by fastify's own types inside the SDK only.
const plugin: FastifyPluginAsync<FastifyWebhookPluginOptions> = async (app, options) => {
  const {
    path = '/',
    secret,
    store,
    onEvent,
    onError,
    toleranceSeconds,
    rejectUnknownEvents,
    now,
  } = options;
  // Picked field by field: the rest of `options` is Fastify's own (prefix, logLevel, …).
  const receiver = { secret, store, onEvent, onError, toleranceSeconds, rejectUnknownEvents, now };
  assertReceiverOptions(receiver);
  const maxBodyBytes = checkMaxBodyBytes(options.maxBodyBytes);

  // Not wrapped in fastify-plugin on purpose: this parser change must stay inside this
  // plugin's encapsulation context. Other media types get Fastify's 415: the service
  // always sends application/json.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: maxBodyBytes },
    (_request, body, done) => done(null, body),
  );

  app.post(path, { bodyLimit: maxBodyBytes }, async (request, reply) => {
    // No body at all leaves request.body undefined; verify it as empty so it fails as 401.
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const result = await handleWebhook({ ...receiver, rawBody, headers: request.headers });
    reply.code(result.status).header('cache-control', 'no-store');
    return result.body;
  });
};

/** Encapsulated Fastify plugin adding `POST path` that verifies and handles deliveries. */
export const fastifyWebhookPlugin = plugin as unknown as (
  app: FastifyLikeInstance,
  options: FastifyWebhookPluginOptions,
) => Promise<void>;
