// The audit trail of a Signet evidence file (docs/evidence.md) as a hash chain. The one
// implementation of the rule: the server links the entries when it seals, verifiers check them,
// so it depends on node:crypto only.
import { hash } from 'node:crypto';

/** A JSON value as JSON.parse returns it. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An audit entry as the evidence file holds it: `prev` links it to the one before. */
export type ChainedEntry = { prev: string } & { [key: string]: JsonValue };

/** The chain is whole, or the first link that does not hold. */
export type ChainCheck =
  | { ok: true; entries: number; head: string }
  | {
      ok: false;
      /**
       * 0-based index of the entry whose `prev` is not the SHA-256 of its predecessor (of the
       * original for entry 0); `entries.length` when `head` does not match the last entry.
       */
      index: number;
      expected: string;
      found: string;
      detail: string;
    };

/**
 * RFC 8785 (JCS) canonical JSON: object keys sorted by UTF-16 code units, no whitespace,
 * strings and numbers as ECMAScript's JSON.stringify writes them. Throws on values JSON cannot
 * hold (undefined, non-finite numbers).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonicalJson: a number must be finite');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object)
      .filter((key) => object[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`).join(',')}}`;
  }
  throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of an entry's canonical JSON. */
export function entryHash(entry: unknown): string {
  return hash('sha256', canonicalJson(entry), 'hex');
}

/**
 * Links entries into a chain: the first one's `prev` is `genesis` (the original's SHA-256),
 * each next one's the SHA-256 of the one before, `prev` included. Returns the chained entries
 * and `head`, the SHA-256 of the last (`genesis` when there are none).
 */
export function chainEntries<T extends { [key: string]: JsonValue }>(
  entries: T[],
  genesis: string,
): { entries: Array<{ prev: string } & T>; head: string } {
  const chained: Array<{ prev: string } & T> = [];
  let prev = genesis;
  for (const entry of entries) {
    const linked = { prev, ...entry };
    chained.push(linked);
    prev = entryHash(linked);
  }
  return { entries: chained, head: prev };
}

/** Checks each entry's `prev` and the `head`; reports the first link that does not hold. */
export function checkChain(
  trail: { entries: ReadonlyArray<{ prev?: unknown }>; head: unknown },
  genesis: string,
): ChainCheck {
  let expected = genesis;
  for (const [index, entry] of trail.entries.entries()) {
    if (entry.prev !== expected) {
      return {
        ok: false,
        index,
        expected,
        found: String(entry.prev),
        detail:
          index === 0
            ? "audit entry 1 does not carry the original's SHA-256: the first entry or the document's hash was changed"
            : `audit entry ${index + 1} does not carry the SHA-256 of entry ${index}: entry ${index} (or this link) was changed`,
      };
    }
    expected = entryHash(entry);
  }
  if (trail.head !== expected) {
    const count = trail.entries.length;
    return {
      ok: false,
      index: count,
      expected,
      found: String(trail.head),
      detail: count
        ? `the trail's head is not the SHA-256 of its last entry (${count}): it was changed, or entries were removed`
        : "the empty trail's head is not the original's SHA-256",
    };
  }
  return { ok: true, entries: trail.entries.length, head: expected };
}
