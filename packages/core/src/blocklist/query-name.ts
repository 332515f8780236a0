/**
 * DNSBL query names (RFC 5782 §2.1, §2.4): the four octets of an IPv4 address reversed, or the
 * 32 nibbles of an IPv6 address reversed, followed by the zone.
 * @module
 */
import { isIP } from 'node:net';
import { InvalidIpError } from '../errors.js';
import { reverseNibbles } from '../net/ip.js';

/**
 * The name to query for `address` in `zone`. The address is taken as written: an IPv4-mapped
 * IPv6 address (`::ffff:7f00:2`) gives a nibble name, as RFC 5782 §5 expects for its IPv6
 * test point. `checkBlacklist` maps such input to IPv4 first (the same host, CONTRACT §3).
 */
export function dnsblQueryName(address: string, zone: string): string {
  const text = address.trim();
  const family = isIP(text);
  if (family === 4) return `${text.split('.').reverse().join('.')}.${zone}`;
  if (family === 6) return `${reverseNibbles(text)}.${zone}`;
  throw new InvalidIpError();
}

/**
 * The RFC 5782 §5 address a working list MUST NOT list: 127.0.0.1 for IPv4 lists,
 * ::FFFF:7F00:1 for IPv6 ones. A zone that lists it is dead or wildcarded.
 */
export function controlAddress(family: 4 | 6): string {
  return family === 4 ? '127.0.0.1' : '::ffff:7f00:1';
}
