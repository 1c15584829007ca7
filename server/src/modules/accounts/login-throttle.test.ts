import { describe, expect, it } from 'vitest';
import type { AppError } from '../../lib/errors.js';
import {
  clientKeyOf,
  createLoginThrottle,
  LOGIN_FAILURE_MEMORY_MS,
  LOGIN_THROTTLE_MAX_ENTRIES,
  LOGIN_THROTTLE_RULES,
  loginDelayMs,
} from './login-throttle.js';
import { createSignupNotices, SIGNUP_NOTICE_COOLDOWN_MS } from './signup-notices.js';

// The throttle's pure logic under a clock the test moves; test/security/login-throttle.test.ts
// shows the same through HTTP.
function setup() {
  const clock = { now: 0 };
  const throttle = createLoginThrottle(() => clock.now);
  /** Seconds to wait (0: the attempt was let through and counted). */
  const attempt = (email: string, ip: string) => {
    try {
      throttle.attempt(email, ip);
      return 0;
    } catch (err) {
      expect((err as AppError).code).toBe('rate_limited');
      return Number((err as AppError).headers?.['retry-after']);
    }
  };
  /** Waits as long as told, then makes the attempt; returns the wait. */
  const attemptAfterWaiting = (email: string, ip: string) => {
    const wait = attempt(email, ip);
    if (wait === 0) return 0;
    clock.now += wait * 1000;
    expect(attempt(email, ip)).toBe(0);
    return wait;
  };
  return { clock, throttle, attempt, attemptAfterWaiting };
}

describe('login throttle', () => {
  it('grows delays from 1 s, doubling, up to each scope cap', () => {
    const { pair, ip, account } = LOGIN_THROTTLE_RULES;
    expect([0, 4, 5, 6, 7, 14, 15, 100, 10_000].map((n) => loginDelayMs(pair, n))).toEqual([
      0, 0, 1000, 2000, 4000, 512_000, 900_000, 900_000, 900_000,
    ]);
    expect(loginDelayMs(ip, 19)).toBe(0);
    expect(loginDelayMs(ip, 20)).toBe(1000);
    expect(loginDelayMs(account, 9)).toBe(0);
    expect(loginDelayMs(account, 10_000)).toBe(60_000);
  });

  it('makes one client guessing one account wait up to 15 minutes per guess', () => {
    const { attemptAfterWaiting } = setup();
    const waits = Array.from({ length: 50 }, () =>
      attemptAfterWaiting('owner@example.com', '198.51.100.7'),
    );
    expect(waits.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(waits.slice(5, 16)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900]);
    expect(new Set(waits.slice(16))).toEqual(new Set([900]));
  });

  it('delays the owner on another client by at most a minute, and never blocks them', () => {
    const { clock, attempt, attemptAfterWaiting, throttle } = setup();
    for (let i = 0; i < 50; i++) attemptAfterWaiting('owner@example.com', '198.51.100.7');
    // Right after the attacker's last failure: the account-wide wait, capped at 60 s.
    const ownerWait = attempt('owner@example.com', '203.0.113.9');
    expect(ownerWait).toBeGreaterThan(0);
    expect(ownerWait).toBeLessThanOrEqual(60);
    clock.now += ownerWait * 1000;
    expect(attempt('owner@example.com', '203.0.113.9')).toBe(0);
    throttle.succeeded('owner@example.com', '203.0.113.9');
    // The owner's success clears the account-wide count, not the attacker's own delay.
    expect(attempt('owner@example.com', '203.0.113.10')).toBe(0);
    expect(attempt('owner@example.com', '198.51.100.7')).toBeGreaterThan(60);
  });

  it('throttles a client spraying one guess across many accounts', () => {
    const { clock, attempt } = setup();
    const results = Array.from({ length: 100 }, (_, i) =>
      attempt(`user${i}@example.com`, '198.51.100.7'),
    );
    expect(results.slice(0, 20)).toEqual(Array(20).fill(0));
    expect(new Set(results.slice(20))).toEqual(new Set([1]));
    // Waiting lets one more guess through, after which the wait doubles.
    clock.now += 1000;
    expect(attempt('user100@example.com', '198.51.100.7')).toBe(0);
    expect(attempt('user101@example.com', '198.51.100.7')).toBe(2);
    // Other clients, and the sprayed accounts from elsewhere, are not affected.
    expect(attempt('user0@example.com', '203.0.113.9')).toBe(0);
  });

  it('takes an account’s own failures off its client’s total on success, not others', () => {
    const { attempt, throttle } = setup();
    for (let i = 0; i < 4; i++) attempt('mine@example.com', '192.0.2.1');
    for (let i = 0; i < 16; i++) attempt(`victim${i}@example.com`, '192.0.2.1');
    throttle.succeeded('mine@example.com', '192.0.2.1');
    // 16 failures left on the client: four more are free, then it waits.
    for (let i = 0; i < 4; i++) expect(attempt(`next${i}@example.com`, '192.0.2.1')).toBe(0);
    expect(attempt('next4@example.com', '192.0.2.1')).toBe(1);
  });

  it('counts an attempt before its password is checked, so concurrent guesses cannot pile up', () => {
    const { attempt } = setup();
    // Five attempts in flight at once (none has reported failure): the sixth must wait.
    for (let i = 0; i < 5; i++) expect(attempt('a@example.com', '192.0.2.1')).toBe(0);
    expect(attempt('a@example.com', '192.0.2.1')).toBe(1);
  });

  it('counts an IPv6 /64 as one client and an IPv4-mapped address as IPv4', () => {
    expect(clientKeyOf('2001:db8:1:2:aaaa::1')).toBe(clientKeyOf('2001:db8:1:2:bbbb::2'));
    expect(clientKeyOf('2001:db8:1:2::1')).not.toBe(clientKeyOf('2001:db8:1:3::1'));
    expect(clientKeyOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    const { attempt } = setup();
    for (let i = 0; i < 5; i++) attempt('a@example.com', `2001:db8::${i + 1}`);
    expect(attempt('a@example.com', '2001:db8::ffff')).toBe(1);
  });

  it('forgets failures a day after the last one and stays bounded in size', () => {
    const { clock, attempt, throttle } = setup();
    for (let i = 0; i < 5; i++) attempt('a@example.com', '192.0.2.1');
    clock.now += LOGIN_FAILURE_MEMORY_MS;
    expect(attempt('b@example.com', '192.0.2.2')).toBe(0);
    expect(throttle.sizes()).toEqual({ pair: 1, ip: 1, account: 1 });
    // A botnet spraying fresh addresses from fresh clients cannot grow the maps past the cap.
    for (let i = 0; i < LOGIN_THROTTLE_MAX_ENTRIES + 100; i++) {
      attempt(`spray${i}@example.com`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    }
    const sizes = throttle.sizes();
    expect(Math.max(sizes.pair, sizes.ip, sizes.account)).toBe(LOGIN_THROTTLE_MAX_ENTRIES);
  });
});

describe('signup notices', () => {
  it('allows one notice per address per cooldown', () => {
    let now = 0;
    const notices = createSignupNotices(() => now);
    expect(notices.take('a@example.com')).toBe(true);
    expect(notices.take('a@example.com')).toBe(false);
    expect(notices.take('b@example.com')).toBe(true);
    now += SIGNUP_NOTICE_COOLDOWN_MS;
    expect(notices.take('a@example.com')).toBe(true);
  });
});
