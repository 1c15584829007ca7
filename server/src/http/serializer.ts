import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { InvalidSchemaError, ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeParse } from 'zod/v4/core';

// Schema kinds whose output depends on the direction they run in: a response schema holding one
// would need zod's encode, which is ten times slower than parse (2 µs for a small object).
const DIRECTIONAL = new Set(['transform', 'pipe', 'default', 'prefault', 'catch']);

/** The first directional kind of schema inside `schema`, or null when there is none. */
export function directionalPart(schema: $ZodType): string | null {
  const seen = new Set<$ZodType>();
  const stack: $ZodType[] = [schema];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (seen.has(current)) continue;
    seen.add(current);
    const def = current._zod.def as unknown as Record<string, unknown> & { type: string };
    if (DIRECTIONAL.has(def.type)) return def.type;
    if (def.type === 'lazy') stack.push((def.getter as () => $ZodType)());
    for (const value of Object.values(def)) {
      const children = Array.isArray(value)
        ? value
        : value && typeof value === 'object' && !(value instanceof $ZodType)
          ? Object.values(value)
          : [value];
      for (const child of children) if (child instanceof $ZodType) stack.push(child);
    }
  }
  return null;
}

/**
 * Serializes a response with its zod schema: checks it and drops undeclared fields, then
 * JSON.stringify. Unlike fastify-type-provider-zod's compiler it parses rather than encodes,
 * which gives the same result for schemas without transforms, pipes or defaults (ours; a route
 * that declares one fails at start) at a tenth of the cost.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  const resolved =
    schema instanceof $ZodType
      ? schema
      : (schema as { properties?: unknown }).properties instanceof $ZodType
        ? (schema as { properties: $ZodType }).properties
        : null;
  if (!resolved) throw new InvalidSchemaError(JSON.stringify(schema));
  const part = directionalPart(resolved);
  if (part) throw new Error(`the response schema of ${method} ${url} holds a ${part}`);
  return (data) => {
    const result = safeParse(resolved, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
