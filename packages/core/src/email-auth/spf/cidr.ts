/**
 * Prefix matching of a client address against a network, for ip4/ip6/a/mx (RFC 7208 §5.6):
 * SPF's reading of the one CIDR implementation (`net/cidr.ts`).
 */
import { createAddressParts, parseAddressInto } from '../../ip/address.js';
import { cidrHas, cidrOf } from '../../net/cidr.js';
import type { ParsedIp } from '../../net/ip.js';

const client = createAddressParts();
const answerParts = createAddressParts();

/**
 * True when `ip` lies in `network/prefix`. An IPv4 client never matches an IPv6 network and
 * vice versa; IPv4-mapped clients arrive here already as IPv4 (RFC 7208 §5, parseIp).
 */
export function inNetwork(ip: ParsedIp, network: string, prefix: number): boolean {
  const block = cidrOf(network, prefix);
  return (
    block !== undefined &&
    block.version === ip.version &&
    parseAddressInto(ip.address, client) &&
    cidrHas(block, client)
  );
}

/**
 * True when an address from an A/AAAA answer is in the client's network. AAAA answers that are
 * IPv4-mapped are compared as IPv6 (the client is IPv6 when AAAA was asked), so they never
 * hold an IPv6 client.
 */
export function answerMatches(ip: ParsedIp, answer: string, prefix: number): boolean {
  if (ip.version === 6) return inNetwork(ip, answer, prefix);
  if (!parseAddressInto(answer, answerParts) || answerParts.version !== 4) return false;
  return inNetwork(ip, answerParts.text, prefix);
}
