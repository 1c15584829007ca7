import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createUser } from '../helpers/factories.js';

describe.each(ENGINES)('state-changing session requests on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx.close());

  const post = (url: string, headers: Record<string, string>, payload?: unknown) =>
    ctx.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

  it('needs Origin or Sec-Fetch-Site proving our own pages, also to log out', async () => {
    const user = await createUser(ctx);
    const refused: Array<Record<string, string>> = [
      {},
      { origin: 'null' },
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
      // An Origin decides: a matching Sec-Fetch-Site does not save a foreign one.
      { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of refused) {
      const tenant = await post('/api/tenants', { cookie: user.cookie, ...headers }, { name: 'x' });
      expect(tenant.statusCode, JSON.stringify(headers)).toBe(403);
      expect(tenant.json().code).toBe('cross_origin_rejected');
      const logout = await post('/api/auth/logout', { cookie: user.cookie, ...headers });
      expect(logout.statusCode, JSON.stringify(headers)).toBe(403);
    }
    // The session survived every refused logout.
    const me = await ctx.app.inject({ url: '/api/auth/me', headers: { cookie: user.cookie } });
    expect(me.statusCode).toBe(200);
    const viaFetchSite = await post(
      '/api/tenants',
      { cookie: user.cookie, 'sec-fetch-site': 'same-origin' },
      { name: 'Mine' },
    );
    expect(viaFetchSite.statusCode).toBe(201);
    const viaOrigin = await post('/api/auth/logout', {
      cookie: user.cookie,
      origin: 'http://localhost:3000',
    });
    expect(viaOrigin.statusCode).toBe(204);
    expect(
      (await ctx.app.inject({ url: '/api/auth/me', headers: { cookie: user.cookie } })).statusCode,
    ).toBe(401);
    // API keys carry no ambient credential: no Origin needed.
    const withKey = await post('/api/tenants', { 'x-api-key': user.apiKey }, { name: 'Key' });
    expect(withKey.statusCode).toBe(201);
  });
});
