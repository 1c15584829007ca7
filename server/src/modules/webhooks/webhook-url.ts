import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { FieldError } from '../../lib/errors.js';

/** Resolves a host name to all of its addresses (dns.promises.lookup with `all: true`). */
export type ResolveHost = (host: string) => Promise<Array<{ address: string }>>;

/**
 * How callback URLs are judged: the production rules, loopback allowed too (a sandbox on a
 * developer's machine), or every private address (WEBHOOK_ALLOW_PRIVATE_URLS).
 */
export type UrlPolicy = { allowPrivate: boolean; allowLoopback?: boolean; resolve?: ResolveHost };

// Named in every refusal that the setting would lift, so a developer finds it.
const SETTING = 'WEBHOOK_ALLOW_PRIVATE_URLS=true allows it for development';

/** True for a loopback address (127.0.0.0/8, ::1). */
export function isLoopbackAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.parse(address).range() === 'loopback';
}

/** True for a URL whose host is `localhost` or a loopback address. */
export function isLoopbackUrl(raw: string): boolean {
  try {
    const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || isLoopbackAddress(host);
  } catch {
    return false;
  }
}

const MAX_URL_LENGTH = 2048;
const DNS_TIMEOUT_MS = 5000;

/**
 * True for addresses a webhook may reach: ipaddr.js classifies everything it knows to be
 * special (loopback, private, link-local, CGNAT, multicast, unspecified, reserved, IPv4-mapped
 * and other IPv6 transition ranges, ...) as something other than `unicast`. This is the same
 * test request-filtering-agent applies at connect time, so save and send agree.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  // ipaddr.js calls the deprecated IPv4-compatible range (::/96, e.g. `[::7f00:1]`, which is
  // how a URL writes `[::127.0.0.1]`) unicast; it only ever holds special addresses.
  if (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return false;
  return parsed.range() === 'unicast';
}

/** The deprecated IPv4-compatible IPv6 range, refused at save and at connect time. */
export const IPV4_COMPATIBLE_CIDR = '::/96';
const IPV4_COMPATIBLE = ipaddr.parseCIDR(IPV4_COMPATIBLE_CIDR);

const defaultResolve: ResolveHost = (host) => dns.lookup(host, { all: true, verbatim: true });

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('DNS lookup timed out')), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    );
  });
}

/**
 * Checks a callback URL when it is saved: absolute `https:` URL without credentials whose
 * host (an IP literal, or every address its name resolves to) is public. Returns the field
 * errors, empty when the URL is acceptable. The check is repeated at connect time, because
 * DNS can answer differently later (rebinding).
 */
export async function checkCallbackUrl(raw: string, policy: UrlPolicy): Promise<FieldError[]> {
  const problem = (message: string) => [{ path: 'body.url', message }];
  if (raw.length > MAX_URL_LENGTH) return problem(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return problem('must be an absolute URL');
  }
  const loopback = !!policy.allowLoopback && isLoopbackUrl(raw);
  const schemes = policy.allowPrivate || loopback ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return problem(
      'must be an https: URL (http: only to this machine in the sandbox, or with WEBHOOK_ALLOW_PRIVATE_URLS=true for development)',
    );
  }
  if (url.username || url.password) return problem('must not contain a user name or password');
  if (policy.allowPrivate || loopback) return [];

  // WHATWG parsing already normalised IPv4 spellings such as 0x7f.1 or 2130706433.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    return isPublicAddress(host)
      ? []
      : problem(
          `must not point to a loopback, private or otherwise non-public address (${host}); ${SETTING}`,
        );
  }
  let addresses: Array<{ address: string }>;
  try {
    addresses = await withTimeout((policy.resolve ?? defaultResolve)(host), DNS_TIMEOUT_MS);
  } catch {
    return problem(`host ${host} does not resolve`);
  }
  if (addresses.length === 0) return problem(`host ${host} does not resolve`);
  const blocked = addresses.find((a) => !isPublicAddress(a.address));
  if (blocked) {
    return problem(
      `host ${host} resolves to a loopback, private or otherwise non-public address (${blocked.address}); ${SETTING}`,
    );
  }
  return [];
}
