import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler } from '../../server/src/http/serializer.js';
import { createEndOfTurn } from '../../server/src/lib/end-of-turn.js';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createTenant, createUser } from '../helpers/factories.js';

// A Fastify app using the service's response serializer, with one route per response schema.
async function appWith(routes: Record<string, { schema: z.ZodType; answer: unknown }>) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  for (const [url, { schema, answer }] of Object.entries(routes)) {
    app.get(url, { schema: { response: { 200: schema } } }, async () => answer);
  }
  return app;
}

describe('response serializer', () => {
  it('drops fields the schema does not declare and keeps the declared ones', async () => {
    const app = await appWith({
      '/thing': {
        schema: z.object({ id: z.string(), tags: z.array(z.object({ name: z.string() })) }),
        answer: { id: 'a', secret: 'hash', tags: [{ name: 'x', internal: 1 }] },
      },
    });
    const response = await app.inject('/thing');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 'a', tags: [{ name: 'x' }] });
    await app.close();
  });

  it('answers 500 rather than send a body that breaks its schema', async () => {
    const app = await appWith({
      '/thing': { schema: z.object({ id: z.string() }), answer: { id: 42 } },
    });
    const response = await app.inject('/thing');
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('42');
    await app.close();
  });

  // zod 4 makes a transform into a pipe to a transform schema.
  it.each([
    ['transform', 'pipe', z.object({ at: z.date().transform((d) => d.toISOString()) })],
    ['default', 'default', z.object({ n: z.number().default(1) })],
    ['pipe', 'pipe', z.object({ n: z.string().pipe(z.coerce.number()) })],
    ['lazy transform', 'pipe', z.object({ n: z.lazy(() => z.string().transform(Number)) })],
  ])('refuses at start a response schema holding a %s', async (_name, kind, schema) => {
    const app = await appWith({ '/thing': { schema, answer: {} } });
    await expect(app.ready()).rejects.toThrow(`the response schema of GET /thing holds a ${kind}`);
  });
});

describe('end of turn', () => {
  it('runs callbacks after the current turn, in order, and past one that throws', async () => {
    const errors: unknown[] = [];
    const defer = createEndOfTurn((err) => errors.push(err));
    const ran: string[] = [];
    defer(() => ran.push('first'));
    defer(() => {
      throw new Error('boom');
    });
    defer(() => ran.push('third'));
    await Promise.resolve();
    expect(ran).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['first', 'third']);
    expect(errors).toEqual([new Error('boom')]);

    defer(() => ran.push('next turn'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['first', 'third', 'next turn']);
  });
});

// Responses completed in one turn are written together at its end; each must still reach the
// request it answers, with its own request id.
describe.each(ENGINES)('responses written together on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { workers: false });
  });
  afterAll(() => ctx.close());

  it('answer each of many concurrent requests with its own body and request id', async () => {
    const owner = await createUser(ctx);
    const tenants = await Promise.all(
      Array.from({ length: 5 }, (_, i) => createTenant(ctx, owner.apiKey, `T${i}`)),
    );
    const asked = Array.from({ length: 40 }, (_, i) => tenants[i % tenants.length]!);
    const responses = await Promise.all(
      asked.map((tenant) =>
        ctx.app.inject({
          method: 'GET',
          url: `/api/tenants/${tenant.id}`,
          headers: { 'x-api-key': owner.apiKey },
        }),
      ),
    );
    responses.forEach((response, i) => {
      expect(response.statusCode).toBe(200);
      expect(response.json().membership).toMatchObject({ tenantId: asked[i]!.id, role: 'owner' });
    });
    const requestIds = new Set(responses.map((response) => response.headers['x-request-id']));
    expect(requestIds.size).toBe(asked.length);
  });
});
