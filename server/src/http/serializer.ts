import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { InvalidSchemaError, ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeParse } from 'zod/v4/core';
import { schemaParts } from '../lib/compiled-check.js';

// Schema kinds whose output depends on the direction they run in: a response schema holding one
// would need zod's encode, which is ten times slower than parse (2 µs for a small object).
const DIRECTIONAL = new Set(['transform', 'pipe', 'default', 'prefault', 'catch']);

/** The first directional kind of schema inside `schema`, or null when there is none. */
export function directionalPart(schema: $ZodType): string | null {
  for (const part of schemaParts(schema)) {
    if (DIRECTIONAL.has(part._zod.def.type)) return part._zod.def.type;
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
