import type { FastifyInstance } from 'fastify';
import { validationError, type FieldError } from '../lib/errors.js';

// Bounds the walk over a parsed body: JSON nested thousands deep is walked without recursion.
const MAX_VISITS = 100_000;

type Step = { value: unknown; key: string; parent: Step | null };

// The dotted path of a step: built only once a NUL is found, so the walk allocates no strings.
function pathOf(step: Step): string {
  const keys: string[] = [];
  let at: Step | null = step;
  for (; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().reduce((path, key) => (path ? `${path}.${key}` : key), at?.key ?? '');
}

/** Where in a parsed value a string holds a NUL character, if anywhere (iterative walk). */
export function findNulCharacter(value: unknown, root: string): string | null {
  const stack: Step[] = [{ value, key: root, parent: null }];
  let visits = 0;
  while (stack.length > 0 && visits++ < MAX_VISITS) {
    const step = stack.pop()!;
    const current = step.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return pathOf(step);
    } else if (current && typeof current === 'object') {
      for (const key of Object.keys(current)) {
        if (key.includes('\u0000')) return pathOf(step);
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: step });
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
