import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createUser } from '../helpers/factories.js';

describe.each(ENGINES)('API keys per user on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx.close());

  it('caps a user at 50 unrevoked keys (409 api_key_limit_reached), counting revoked ones out', async () => {
    const user = await createUser(ctx); // holds one key already
    const headers = { cookie: user.cookie, origin: new URL(ctx.config.publicUrl).origin };
    const make = (name: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/account/api-keys', headers, payload: { name } });
    // Made concurrently: the last places are not given twice.
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => make(`key ${i}`)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(49);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(refused).toHaveLength(11);
    expect(refused[0].json().code).toBe('api_key_limit_reached');
    expect(refused[0].json().detail).toContain('50 API keys');
    expect(refused[0].json()).not.toHaveProperty('secret');
    const listed = await ctx.app.inject({ url: '/api/account/api-keys', headers });
    expect(listed.json().apiKeys).toHaveLength(50);

    // Revoking one frees its place.
    const revoked = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/account/api-keys/${listed.json().apiKeys[0].id}`,
      headers,
    });
    expect(revoked.statusCode).toBe(204);
    expect((await make('replacement')).statusCode).toBe(201);
    expect((await make('one too many')).statusCode).toBe(409);
  });
});
