import type { FastifyInstance } from 'fastify';
import { validationError, type FieldError } from './errors.js';

// Bounds the walk over a parsed body: JSON nested thousands deep is walked without recursion.
const MAX_VISITS = 100_000;

/** Where in a parsed value a string holds a NUL character, if anywhere (iterative walk). */
export function findNulCharacter(value: unknown, root: string): string | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  let visits = 0;
  while (stack.length > 0 && visits++ < MAX_VISITS) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path;
    } else if (current && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        if (key.includes('\u0000')) return path;
        stack.push([child, path ? `${path}.${key}` : key]);
      }
    }
  }
  return null;
}

/**
 * Refuses NUL characters in path parameters, query strings and JSON bodies with 422: no field of
 * ours can hold one, and PostgreSQL text cannot store one (it would fail as a 500 there and be
 * stored on SQLite), so both engines answer the same.
 */
export function registerInputChecks(app: FastifyInstance) {
  // Runs on every request: a callback hook, and the paths are only worked out once a NUL is found.
  app.addHook('preValidation', (request, _reply, done) => {
    const parts = [request.params, request.query, request.body];
    if (!parts.some(holdsNulCharacter)) return done();
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

/** Whether a parsed value holds a NUL character in any string or key (iterative walk). */
function holdsNulCharacter(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (!value || typeof value !== 'object') return false;
  const stack: object[] = [value];
  let visits = 0;
  while (stack.length > 0 && visits++ < MAX_VISITS) {
    const current = stack.pop()!;
    for (const key in current) {
      if (key.includes('\u0000')) return true;
      const child = (current as Record<string, unknown>)[key];
      if (typeof child === 'string') {
        if (child.includes('\u0000')) return true;
      } else if (child && typeof child === 'object') stack.push(child);
    }
  }
  return false;
}
