import type { FastifyInstance } from 'fastify';
import { validationError, type FieldError } from '../lib/errors.js';
import { findNulCharacter } from '../lib/nul-characters.js';

/**
 * Refuses NUL characters in path parameters, query strings and JSON bodies with 422: no field of
 * ours can hold one, and PostgreSQL text cannot store one (it would fail as a 500 there and be
 * stored on SQLite), so both engines answer the same.
 */
export function registerInputChecks(app: FastifyInstance) {
  // Runs on every request: a callback hook, so the common case allocates no promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const errors: FieldError[] = [];
    for (const [part, value] of [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const) {
      const at = findNulCharacter(value, part);
      if (at) errors.push({ path: at, message: 'must not contain NUL characters' });
    }
    done(errors.length > 0 ? validationError(errors) : undefined);
  });
}
