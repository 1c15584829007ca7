import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RESOURCE_EXAMPLES } from './openapi-examples.js';

// The OpenAPI document the service publishes at /api/openapi.json. Routes describe themselves
// (operationId, summary, tags, security, schemas); this module adds what every route shares:
// errors as application/problem+json, multipart bodies described part by part, and examples
// lifted from the schemas onto each request and response. `signet openapi` writes it, and
// `npm run check` lints it and compares it with the committed copy (docs/openapi.json).

declare module 'fastify' {
  // Declaration merging needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    /**
     * A multipart route's parts, for the OpenAPI document only (the handler reads and checks
     * the parts itself). Objects and arrays are JSON parts.
     */
    multipartBody?: z.ZodObject;
    /** A route answering a PDF file: the description of its 200, for the OpenAPI document. */
    fileResponse?: string;
    /** A route whose body is a file itself (a logo), of these media types: for the document only. */
    binaryBody?: { types: string[]; description: string };
  }
}

type Json = Record<string, unknown>;
type Operation = {
  operationId?: string;
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
};
type MediaType = { schema?: Json; example?: unknown; encoding?: Record<string, Json> };

const TAGS = [
  {
    name: 'accounts',
    description: 'Sign-up, e-mail verification, sessions, password reset, API keys.',
  },
  { name: 'tenants', description: 'Tenants, members, invitations, settings and credits.' },
  {
    name: 'documents',
    description: 'Quick-create, editing, listing, sending, reminders, cancel, files.',
  },
  { name: 'fields', description: "Fields on the document's pages, and text tags." },
  { name: 'folders', description: "A tenant's folder tree." },
  {
    name: 'templates',
    description: 'Templates, create-from-template, direct links and bulk send.',
  },
  { name: 'signing', description: 'The signee side, authorised by the signing link: no key.' },
  { name: 'sealing', description: 'Checking that a PDF was sealed by this service: no key.' },
  {
    name: 'webhooks',
    description: 'Webhook endpoints, deliveries, redelivery and the event feed.',
  },
  { name: 'operations', description: 'Health, readiness, metrics and service metadata: no key.' },
  { name: 'sandbox', description: 'Sandbox-only tools (the dev mailbox), on loopback only.' },
];

/** The options of @fastify/swagger for the service's document. */
export function openApiOptions(publicUrl: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Signet API',
        version: '1.0.0',
        description:
          'Document e-signing: upload a PDF with signees, send it for signing, receive signed webhooks. Authenticate with the X-Api-Key header; routes marked with no security need none. Every error is application/problem+json: branch on its `code`.',
        license: { name: 'AGPL-3.0-only', identifier: 'AGPL-3.0-only' },
      },
      servers: [{ url: publicUrl }],
      tags: TAGS,
      components: {
        securitySchemes: {
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Api-Key',
            description: 'sk_test_… on a sandbox host, sk_live_… on a production host.',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'signet_session',
            description: "The dashboard's session cookie, set by logIn.",
          },
        },
      },
      security: [{ apiKey: [] }, { session: [] }],
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input) as { schema: Json; url: string };
      const parts = input.route.config?.multipartBody;
      if (parts && !out.schema.hide) {
        out.schema.body = z.toJSONSchema(parts, { target: 'draft-2020-12', io: 'input' });
        out.schema.consumes = ['multipart/form-data'];
      }
      const binary = input.route.config?.binaryBody;
      if (binary && !out.schema.hide) {
        out.schema.body = { type: 'string', format: 'binary', description: binary.description };
        out.schema.consumes = binary.types;
      }
      const file = input.route.config?.fileResponse;
      if (file && !out.schema.hide) {
        out.schema.response = {
          ...(out.schema.response as Json | undefined),
          200: {
            description: file,
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
        };
      }
      return out as ReturnType<typeof jsonSchemaTransform>;
    },
    transformObject: (input) => {
      const doc = jsonSchemaTransformObject(input) as Json & { paths?: Json; components?: Json };
      finish(doc);
      return doc as ReturnType<typeof jsonSchemaTransformObject>;
    },
  };
}

/** Adds what every operation shares; see the top of this file. */
function finish(doc: Json & { paths?: Json; components?: Json }) {
  const schemas = ((doc.components ?? {}) as { schemas?: Record<string, Json> }).schemas ?? {};
  for (const [name, example] of Object.entries(RESOURCE_EXAMPLES)) {
    if (schemas[name]) schemas[name].examples = [example];
  }
  const resolve = (schema: Json | undefined): Json | undefined => {
    const ref = schema?.$ref;
    return typeof ref === 'string' ? schemas[ref.replace('#/components/schemas/', '')] : schema;
  };
  for (const item of Object.values(doc.paths ?? {}) as Record<string, Operation>[]) {
    for (const operation of Object.values(item)) {
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        if (type === 'multipart/form-data') describeParts(media, resolve);
        addExample(media, resolve);
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const content = response.content;
        if (!content) continue;
        if (Number(status) >= 400 && content['application/json']) {
          response.content = { 'application/problem+json': content['application/json'] };
          continue;
        }
        for (const media of Object.values(content)) addExample(media, resolve);
      }
    }
  }
  // zod's registry yields an input and an output copy of each named schema; keep those used.
  for (;;) {
    const text = JSON.stringify({ ...doc, components: { ...doc.components, schemas: {} } });
    const used = (name: string) =>
      text.includes(`"#/components/schemas/${name}"`) ||
      Object.entries(schemas).some(
        ([other, schema]) =>
          other !== name && JSON.stringify(schema).includes(`"#/components/schemas/${name}"`),
      );
    const unused = Object.keys(schemas).filter((name) => !used(name));
    if (unused.length === 0) break;
    for (const name of unused) delete schemas[name];
  }
}

/** Object and array parts of a multipart body are JSON documents; files are binary. */
function describeParts(media: MediaType, resolve: (s: Json | undefined) => Json | undefined) {
  const properties = (resolve(media.schema)?.properties ?? {}) as Record<string, Json>;
  const encoding: Record<string, Json> = {};
  for (const [name, part] of Object.entries(properties)) {
    const resolved = resolve(part) ?? {};
    if (resolved.type === 'object' || resolved.type === 'array' || resolved.anyOf) {
      encoding[name] = { contentType: 'application/json' };
    } else if (resolved.contentMediaType) {
      encoding[name] = { contentType: resolved.contentMediaType };
    }
  }
  if (Object.keys(encoding).length > 0) media.encoding = encoding;
}

/**
 * A media type's example: the schema's own first example, else one put together from the
 * examples of its properties (a response wrapping a documented resource gets that resource's).
 */
function addExample(media: MediaType, resolve: (s: Json | undefined) => Json | undefined) {
  if (media.example !== undefined || !media.schema) return;
  const example = exampleOf(media.schema, resolve, 0);
  if (example !== undefined) media.example = example;
}

function exampleOf(
  schema: Json | undefined,
  resolve: (s: Json | undefined) => Json | undefined,
  depth: number,
): unknown {
  const s = resolve(schema);
  if (!s || depth > 12) return undefined;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const variants = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (variants) {
    const examples = variants.map((v) => exampleOf(v, resolve, depth + 1));
    return examples.find((e) => e !== undefined && e !== null) ?? examples.find((e) => e === null);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1;
    case 'string':
      return stringExample(s);
    case 'array': {
      const item = exampleOf(s.items as Json, resolve, depth + 1);
      return item === undefined ? undefined : [item];
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set((s.required as string[] | undefined) ?? []);
      for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
        const e = exampleOf(property, resolve, depth + 1);
        if (e !== undefined) out[name] = e;
        else if (required.has(name)) return undefined;
      }
      return out;
    }
  }
  return undefined;
}

/** A plain value for a string schema without an example of its own. */
function stringExample(s: Json): string | undefined {
  switch (s.format) {
    case 'uuid':
      return '01a21557-5b18-70ba-b25d-6ee920342351';
    case 'email':
      return 'ada@example.com';
    case 'uri':
      return 'https://signet.example.com/';
    case 'date-time':
      return '2026-11-26T00:52:58.604Z';
    case 'binary':
      return undefined;
  }
  if (s.pattern) return undefined;
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  return 'text'.padEnd(min, 'x');
}
