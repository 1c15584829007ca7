import ipaddr from 'ipaddr.js';
import { AppError } from '../../lib/errors.js';

/** How one scope of the login throttle grows its delays. */
export type ThrottleRule = {
  /** Failed attempts allowed with no wait. */
  free: number;
  /** The wait after the first failure beyond `free`; each further failure doubles it. */
  baseMs: number;
  /** The longest wait. */
  capMs: number;
};

/**
 * The three scopes. One client guessing one account (pair) soon waits 15 minutes per guess;
 * one client spraying many accounts (ip) gets a larger free budget, then the same growth;
 * many clients on one account (account) are slowed too, but capped at one minute because
 * that wait applies to every client, the owner included: it is the longest an attacker can
 * make the owner wait.
 */
export const LOGIN_THROTTLE_RULES = {
  pair: { free: 5, baseMs: 1000, capMs: 15 * 60_000 },
  ip: { free: 20, baseMs: 1000, capMs: 15 * 60_000 },
  account: { free: 10, baseMs: 1000, capMs: 60_000 },
} as const satisfies Record<string, ThrottleRule>;

/** How long failures are remembered after the last one: long enough that idling pays little. */
export const LOGIN_FAILURE_MEMORY_MS = 24 * 3600_000;

/** Entries kept per scope; beyond it the least recently failed entry is forgotten. */
export const LOGIN_THROTTLE_MAX_ENTRIES = 50_000;

type Entry = { failures: number; lastAt: number };

/** The wait a rule requires after `failures` counted attempts. */
export function loginDelayMs(rule: ThrottleRule, failures: number): number {
  if (failures < rule.free) return 0;
  // 2 ** 30 already exceeds any sane cap; bounding the exponent keeps the number finite.
  return Math.min(rule.capMs, rule.baseMs * 2 ** Math.min(30, failures - rule.free));
}

/**
 * The client key: an IPv6 client usually owns a whole /64, so it counts as one client; an
 * IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function clientKeyOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

// One scope's counters. The map is kept in order of last attempt (an update re-inserts), so
// the entries old enough to forget are always a prefix, and the first entry is the one to
// evict when full: sweeping and evicting cost only what they remove.
function createScope(rule: ThrottleRule, now: () => number) {
  const entries = new Map<string, Entry>();

  function sweep(t: number) {
    for (const [key, entry] of entries) {
      if (entry.lastAt + LOGIN_FAILURE_MEMORY_MS > t) break;
      entries.delete(key);
    }
  }

  return {
    entries,
    /** Milliseconds still to wait before this key may try again (0: now). */
    waitMs(key: string): number {
      const t = now();
      sweep(t);
      const entry = entries.get(key);
      if (!entry) return 0;
      return Math.max(0, entry.lastAt + loginDelayMs(rule, entry.failures) - t);
    },
    count(key: string): void {
      const t = now();
      const entry = entries.get(key);
      entries.delete(key);
      if (!entry && entries.size >= LOGIN_THROTTLE_MAX_ENTRIES) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(key, { failures: (entry?.failures ?? 0) + 1, lastAt: t });
    },
    forget(key: string): number {
      const failures = entries.get(key)?.failures ?? 0;
      entries.delete(key);
      return failures;
    },
    uncount(key: string, failures: number): void {
      const entry = entries.get(key);
      if (!entry) return;
      entry.failures -= failures;
      if (entry.failures <= 0) entries.delete(key);
    },
  };
}

/**
 * Slows password guessing with growing delays instead of a lockout, per account and client
 * (see LOGIN_THROTTLE_RULES). `attempt` is called before the password is checked: while any
 * scope requires a wait it throws 429 `rate_limited` with `Retry-After`, so a guess made then
 * is never checked; otherwise it counts the attempt as a failure at once, before the slow
 * password check, so concurrent requests cannot all slip through one free slot. `succeeded`
 * then takes the attempt back. In process memory, like the API-key limiter.
 */
export function createLoginThrottle(now: () => number = () => Date.now()) {
  const pair = createScope(LOGIN_THROTTLE_RULES.pair, now);
  const ip = createScope(LOGIN_THROTTLE_RULES.ip, now);
  const account = createScope(LOGIN_THROTTLE_RULES.account, now);
  const keysOf = (email: string, address: string) => {
    const client = clientKeyOf(address);
    return { client, pairKey: `${client} ${email}` };
  };

  return {
    /** Throws 429 while a wait applies to this e-mail or client; else counts one attempt. */
    attempt(email: string, address: string): void {
      const { client, pairKey } = keysOf(email, address);
      const waitMs = Math.max(pair.waitMs(pairKey), ip.waitMs(client), account.waitMs(email));
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        throw new AppError(
          'rate_limited',
          `Too many failed logins; try again in ${seconds} second(s).`,
          { headers: { 'retry-after': String(seconds) } },
        );
      }
      pair.count(pairKey);
      ip.count(client);
      account.count(email);
    },
    /**
     * Clears the account's failures and this client's on the account, and takes them off the
     * client's total: they were the owner's typos. Failures on other accounts stay counted,
     * so logging in to one's own account does not buy more guesses elsewhere.
     */
    succeeded(email: string, address: string): void {
      const { client, pairKey } = keysOf(email, address);
      ip.uncount(client, pair.forget(pairKey));
      account.forget(email);
    },
    /** Entries held per scope, for tests of the memory bound. */
    sizes: () => ({ pair: pair.entries.size, ip: ip.entries.size, account: account.entries.size }),
  };
}

/** The login limiter. */
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
