import ipaddr from 'ipaddr.js';
import { clientKeyOf } from './login-throttle.js';

/**
 * Sign-ups allowed per client address and per network: each queues an e-mail to an address
 * of the client's choosing, so a client gets a few at once and then one every few minutes.
 * A household or office behind one address signs up 5 people at once, then one per 5 minutes
 * (12 an hour); a /24 (or, for IPv6, the /64 one subscriber usually holds) 20 at once, then one
 * a minute, so renting neighbouring addresses buys little.
 */
export const SIGNUP_LIMITS = {
  client: { burst: 5, perSecond: 1 / 300 },
  network: { burst: 20, perSecond: 1 / 60 },
} as const;

/** The client's own address, an IPv4-mapped IPv6 address as its IPv4 address. */
export function addressKeyOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  return ipaddr.process(ip).toNormalizedString();
}

/** The client's network: its IPv4 /24, or its IPv6 /64. */
export function networkKeyOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') {
    return `${(parsed as ipaddr.IPv4).octets.slice(0, 3).join('.')}.0/24`;
  }
  // An IPv6 client's /64, keyed as the login throttle keys it.
  return clientKeyOf(ip);
}
