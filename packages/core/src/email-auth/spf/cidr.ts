/** Prefix matching of a client address against a network, for ip4/ip6/a/mx (RFC 7208 §5.6). */
import { isIPv4, isIPv6 } from 'node:net';
import { ipv4ToUint32, ipv6ToBigInt, type ParsedIp, parseIp } from '../../net/ip.js';

/**
 * True when `ip` lies in `network/prefix`. An IPv4 client never matches an IPv6 network and
 * vice versa; IPv4-mapped clients arrive here already as IPv4 (RFC 7208 §5, parseIp).
 */
export function inNetwork(ip: ParsedIp, network: string, prefix: number): boolean {
  if (ip.version === 4) {
    if (!isIPv4(network)) return false;
    if (prefix === 0) return true;
    const shift = 32 - prefix;
    return ipv4ToUint32(ip.address) >>> shift === ipv4ToUint32(network) >>> shift;
  }
  if (!isIPv6(network)) return false;
  const shift = BigInt(128 - prefix);
  return ipv6ToBigInt(ip.address) >> shift === ipv6ToBigInt(network) >> shift;
}

/**
 * True when an address from an A/AAAA answer is in the client's network. AAAA answers that are
 * IPv4-mapped are compared as IPv6 (the client is IPv6 when AAAA was asked).
 */
export function answerMatches(ip: ParsedIp, answer: string, prefix: number): boolean {
  if (ip.version === 4) {
    const parsed = parseIp(answer);
    return parsed?.version === 4 && inNetwork(ip, parsed.address, prefix);
  }
  return isIPv6(answer) && inNetwork(ip, answer, prefix);
}
