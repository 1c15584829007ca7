import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, problemOf, validationError } from '../lib/errors.js';
import { cutLingeringConnections, drainRefusedBody } from './lingering-close.js';

/** Writes an RFC 9457 problem+json reply. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const { status, title } = problemOf(error.code);
  if (error.headers) reply.headers(error.headers);
  // The client may still be sending the body: let it finish, so it can read this answer.
  if (error.code === 'payload_too_large') drainRefusedBody(request.raw);
  return reply
    .code(status)
    .type('application/problem+json')
    .send({
      type: `urn:signet:problem:${error.code}`,
      title,
      status,
      detail: error.message,
      code: error.code,
      requestId: request.id,
      ...(error.errors ? { errors: error.errors } : {}),
      ...error.extensions,
    });
}

// Fastify's own errors carry codes; map the ones a client can cause to ours.
function fromFastifyError(error: FastifyError): AppError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', error.message);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('payload_too_large', error.message);
    case 'FST_FILES_LIMIT':
      return validationError([{ path: 'file', message: 'exactly one file is accepted' }]);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return validationError([{ path: '', message: 'too many parts in the multipart body' }]);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('malformed_request', error.message);
  }
  // The multipart parser's own errors carry no code ("Multipart: Boundary not found",
  // "Unexpected end of multipart data"): a broken body is the client's, not a 500.
  if (
    !error.code &&
    /multipart|Part terminated|boundary|Malformed part header/i.test(error.message)
  ) {
    return new AppError('malformed_request', `Malformed multipart body: ${error.message}`);
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new AppError('malformed_request', error.message);
  }
  if (error.statusCode === 413) return new AppError('payload_too_large', error.message);
  if (error.statusCode === 415) return new AppError('unsupported_media_type', error.message);
  return null;
}

/**
 * Fastify's `frameworkErrors`: the router's own refusals (a URL it cannot decode, a path
 * parameter longer than it matches) answer problem+json like every other error.
 */
export function handleFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let problem: AppError;
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    problem = new AppError('uri_too_long', 'A path segment is too long.');
  } else if (error.code === 'FST_ERR_BAD_URL') {
    problem = new AppError('malformed_request', 'The URL cannot be decoded.');
  } else {
    // An async route constraint failing is ours, not the client's.
    request.log.error({ err: error }, 'router error');
    problem = new AppError(
      'internal_error',
      'Something went wrong; the request id helps us find it.',
    );
  }
  return sendProblem(request, reply, problem);
}

/**
 * An invalid input's `errors[].path`: its place in the request joined with dots
 * (`body.email`, `params.tenantId`, `body.signees.1.name`), but a field of a body's `fields`
 * array as every other check of fields names it, `fields[3].page` (decisions §8).
 */
function pathOf(context: string | undefined, segments: string[]): string {
  const [first, index, ...rest] = segments;
  if (context === 'body' && first === 'fields' && index !== undefined && /^\d+$/.test(index)) {
    return [`fields[${index}]`, ...rest].join('.');
  }
  return [context, ...segments].filter(Boolean).join('.');
}

/** Installs the error and not-found handlers that make every error problem+json. */
export function registerErrorHandlers(app: FastifyInstance) {
  app.addHook('preClose', async () => cutLingeringConnections());
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendProblem(request, reply, error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        path: pathOf(error.validationContext, String(v.instancePath).split('/').filter(Boolean)),
        message: v.message ?? 'is invalid',
      }));
      return sendProblem(request, reply, validationError(errors));
    }
    const mapped = fromFastifyError(error);
    if (mapped) return sendProblem(request, reply, mapped);
    if (request.raw.readableAborted || request.raw.socket?.destroyed) {
      // The client hung up (e.g. mid-upload): nobody reads this answer, and it is not our fault.
      request.log.info({ err: error }, 'client closed the connection');
      return sendProblem(request, reply, new AppError('malformed_request', 'Request aborted.'));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return sendProblem(
        request,
        reply,
        new AppError('service_unavailable', 'The database is unreachable; retry shortly.', {
          headers: { 'retry-after': '1' },
        }),
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(
      request,
      reply,
      new AppError('internal_error', 'Something went wrong; the request id helps us find it.'),
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      request,
      reply,
      new AppError('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`),
    ),
  );
}

// 57P01 admin shutdown, 57P02 crash shutdown, 57P03 starting up or shutting down, 08xxx
// connection failures; the messages are node-postgres's own for a lost or refused socket and for
// its pool's connectionTimeoutMillis.
const UNAVAILABLE_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'SQLITE_BUSY',
];
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error/;

function isDatabaseUnavailable(error: unknown): boolean {
  // A host name with several addresses fails as an AggregateError of per-address errors.
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  const code = (error as { code?: string }).code ?? '';
  return (
    UNAVAILABLE_CODES.includes(code) || UNAVAILABLE_MESSAGE.test(String((error as Error).message))
  );
}
