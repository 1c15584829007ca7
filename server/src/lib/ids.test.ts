import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { hashSecret, isoIn, memoize, newId, newSecret, nowIso, safeEqual } from './ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('newId', () => {
  it('makes UUID v7s carrying the current millisecond', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(id).toMatch(UUID_V7);
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after);
  });

  it('sorts in the order ids were made, past the random pool refill, without repeats', () => {
    // 5000 ids span many milliseconds and many refills of the 256-id pool.
    const ids = Array.from({ length: 5000 }, () => newId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID_V7);
  });

  it('keeps the order within one millisecond', () => {
    // The clock stands still: every id after the first comes from the in-millisecond counter.
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    try {
      const ids = Array.from({ length: 300 }, () => newId());
      expect([...ids].sort()).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('timestamps', () => {
  it('nowIso is the current time as ISO 8601 UTC with milliseconds', () => {
    const before = Date.now();
    const now = nowIso();
    expect(now).toMatch(ISO);
    expect(Date.parse(now)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(now)).toBeLessThanOrEqual(Date.now());
  });

  it('isoIn adds the given milliseconds', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00.000Z'), toFake: ['Date'] });
    try {
      expect(isoIn(1500)).toBe('2030-01-01T00:00:01.500Z');
      expect(isoIn(-60_000)).toBe('2029-12-31T23:59:00.000Z');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('secrets', () => {
  it('newSecret is the prefix and 32 URL-safe random bytes by default', () => {
    const a = newSecret('sk_test_');
    expect(a).toMatch(/^sk_test_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice('sk_test_'.length), 'base64url')).toHaveLength(32);
    expect(newSecret('sk_test_')).not.toBe(a);
    expect(newSecret('ev_', 16)).toMatch(/^ev_[A-Za-z0-9_-]{22}$/);
  });

  it('hashSecret is SHA-256 in lower-case hex', () => {
    expect(hashSecret('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hashSecret('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashSecret differs for different secrets and is stable for one', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(hashSecret(a)).toBe(hashSecret(a));
        if (a !== b) expect(hashSecret(a)).not.toBe(hashSecret(b));
      }),
    );
  });

  it('safeEqual is string equality, whatever the lengths', () => {
    expect(safeEqual('sk_test_abc', 'sk_test_abc')).toBe(true);
    expect(safeEqual('sk_test_abc', 'sk_test_abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(safeEqual(a, b)).toBe(a === b);
        expect(safeEqual(a, a)).toBe(true);
      }),
    );
  });
});

describe('memoize', () => {
  it('runs the factory once and shares its promise', async () => {
    const factory = vi.fn(async () => ({ value: 1 }));
    const get = memoize(factory);
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(await get()).toBe(a);
    expect(factory).toHaveBeenCalledTimes(1);
  });

  it('retries after a failure', async () => {
    let calls = 0;
    const get = memoize(async () => {
      calls++;
      if (calls === 1) throw new Error('first call fails');
      return calls;
    });
    await expect(get()).rejects.toThrow('first call fails');
    expect(await get()).toBe(2);
    expect(await get()).toBe(2);
    expect(calls).toBe(2);
  });
});
