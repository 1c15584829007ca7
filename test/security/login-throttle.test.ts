import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { createUser, uniqueEmail } from '../helpers/factories.js';

// The throttle reads the clock through Date.now, so faking only Date moves its clock while
// timers, the database drivers and argon2 keep running for real.
function freezeClock() {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
}
function advanceSeconds(seconds: number) {
  vi.setSystemTime(Date.now() + seconds * 1000);
}

describe.each(ENGINES)('login throttling on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(() => ctx.close());

  const login = (email: string, password: string, remoteAddress: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      remoteAddress,
    });
  const retryAfterOf = (res: { statusCode: number; headers: Record<string, unknown> }) => {
    expect(res.statusCode).toBe(429);
    return Number(res.headers['retry-after']);
  };

  it('slows one client guessing one account with growing delays, never locking the owner out', async () => {
    const owner = await createUser(ctx);
    const attacker = '198.51.100.1';
    freezeClock();
    const waits: number[] = [];
    for (let i = 0; i < 50; i++) {
      let res = await login(owner.email, `wrong password ${i}`, attacker);
      if (res.statusCode === 429) {
        expect(res.json().code).toBe('rate_limited');
        const wait = retryAfterOf(res);
        waits.push(wait);
        advanceSeconds(wait);
        res = await login(owner.email, `wrong password ${i}`, attacker);
      }
      expect(res.statusCode).toBe(401);
    }
    // Five free failures, then 1 s doubling up to the 15-minute cap.
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, ...Array(35).fill(900)]);

    // Before the wait is over the password is not even checked: the right one is refused too.
    const early = await login(owner.email, owner.password, attacker);
    expect(retryAfterOf(early)).toBe(900);
    expect(early.headers['set-cookie']).toBeUndefined();

    // The owner elsewhere waits at most the account-wide cap of 60 s, then logs in.
    const ownerIp = '203.0.113.1';
    const ownerWait = retryAfterOf(await login(owner.email, owner.password, ownerIp));
    expect(ownerWait).toBeGreaterThan(0);
    expect(ownerWait).toBeLessThanOrEqual(60);
    advanceSeconds(ownerWait);
    const ownerLogin = await login(owner.email, owner.password, ownerIp);
    expect(ownerLogin.statusCode).toBe(200);
    expect(String(ownerLogin.headers['set-cookie'])).toMatch(/signet_session=/);

    // The attacker's own delay stands; after it, the right password works from there too.
    const left = retryAfterOf(await login(owner.email, owner.password, attacker));
    expect(left).toBe(900 - ownerWait);
    advanceSeconds(left);
    expect((await login(owner.email, owner.password, attacker)).statusCode).toBe(200);
    // The success cleared that client's failures on the account.
    expect((await login(owner.email, 'wrong again', attacker)).statusCode).toBe(401);
  });

  it('throttles one client spraying a wrong password across 100 accounts', async () => {
    const emails = Array.from({ length: 100 }, () => uniqueEmail('spray'));
    const password = 'correct horse battery';
    await Promise.all(
      emails.map(async (email, i) => {
        // Each from its own network: sign-up is limited per client address and network.
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          payload: { email, password, name: 'Sprayed' },
          remoteAddress: `10.${i}.0.1`,
        });
        expect(res.statusCode).toBe(201);
      }),
    );
    const sprayer = '198.51.100.2';
    freezeClock();
    const statuses: number[] = [];
    const waits = new Set<number>();
    for (const email of emails) {
      const res = await login(email, 'Password123!', sprayer);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) waits.add(retryAfterOf(res));
    }
    // 20 free failures for the client across all accounts, then it must wait.
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(80).fill(429)]);
    expect([...waits]).toEqual([1]);
    advanceSeconds(1);
    expect((await login(emails[20], 'Password123!', sprayer)).statusCode).toBe(401);
    expect(retryAfterOf(await login(emails[21], 'Password123!', sprayer))).toBe(2);

    // Unknown addresses count alike (no hint which addresses have accounts).
    expect(retryAfterOf(await login(uniqueEmail('nobody'), 'whatever', sprayer))).toBe(2);
    // The sprayed accounts' owners, and other clients, are not affected.
    expect((await login(emails[0], password, '203.0.113.2')).statusCode).toBe(200);
    expect((await login(emails[1], 'Password123!', '203.0.113.3')).statusCode).toBe(401);
  });

  it('counts an IPv6 /64 as one client', async () => {
    const owner = await createUser(ctx);
    freezeClock();
    for (let i = 1; i <= 5; i++) {
      expect((await login(owner.email, 'wrong password', `2001:db8:5::${i}`)).statusCode).toBe(401);
    }
    expect(retryAfterOf(await login(owner.email, owner.password, '2001:db8:5::99'))).toBe(1);
  });
});
