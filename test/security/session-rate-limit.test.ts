import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { insertSession } from '../helpers/db-factories.js';
import { createUser } from '../helpers/factories.js';

describe.each(ENGINES)('session requests are rate limited on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, {
      env: { RATE_LIMIT_PER_SECOND: '2', RATE_LIMIT_BURST: '10' },
    });
  });
  afterAll(() => ctx.close());

  it("limits a user's sessions together, with RateLimit headers and 429 + Retry-After", async () => {
    const user = await createUser(ctx);
    // A second session of the same user draws on the same bucket.
    const other = await insertSession(ctx, user.id);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        ctx.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { cookie: i % 2 ? user.cookie : other },
        }),
      ),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(ok.length).toBeGreaterThanOrEqual(10);
    expect(ok.length).toBeLessThanOrEqual(11);
    expect(limited.length).toBe(30 - ok.length);
    expect(ok[0].headers['ratelimit-limit']).toBe('10');
    expect(ok[0].headers['ratelimit-remaining']).toBeDefined();
    expect(limited[0].json().code).toBe('rate_limited');
    expect(limited[0].headers['content-type']).toContain('application/problem+json');
    expect(Number(limited[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // Another user's sessions have their own bucket.
    const stranger = await createUser(ctx);
    const theirs = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: stranger.cookie },
    });
    expect(theirs.statusCode).toBe(200);
  });
});
