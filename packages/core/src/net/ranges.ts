/**
 * The special-purpose address table and `isPublicAddress()`: the heart of the SSRF guard and
 * of bogon detection. Sources: IANA IPv4 Special-Purpose Address Registry (RFC 6890 and
 * updates) and IANA IPv6 Special-Purpose Address Registry, as listed in CONTRACT §4.
 * https://www.iana.org/assignments/iana-ipv4-special-registry/
 * https://www.iana.org/assignments/iana-ipv6-special-registry/
 * @module
 */
import { type AddressParts, createAddressParts, formatV4 } from '../ip/address.js';
import { type Cidr, cidrHasV4, cidrHasV6, parseCidr } from './cidr.js';
import { parseLiteralInto } from './ip.js';

export { type CidrSet, parseCidrList } from './cidr.js';

export interface SpecialRange {
  cidr: string;
  name: string;
}

/**
 * The networks a person means by "my machine and my LAN": loopback (RFC 1122, RFC 4291),
 * private-use (RFC 1918), shared address space (RFC 6598), link-local (RFC 3927, RFC 4291) and
 * unique local (RFC 4193). A local CLI adds them to the allowed targets on request
 * (`--allow-private`); the SSRF guard refuses them by default.
 */
export const LOCAL_NETWORK_RANGES: readonly string[] = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  '169.254.0.0/16',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
];

/** IPv4 ranges that are not globally reachable unicast. */
export const IPV4_SPECIAL_RANGES: readonly SpecialRange[] = [
  { cidr: '0.0.0.0/8', name: '"this network" (RFC 791)' },
  { cidr: '10.0.0.0/8', name: 'private network (RFC 1918)' },
  { cidr: '100.64.0.0/10', name: 'carrier-grade NAT shared space (RFC 6598)' },
  { cidr: '127.0.0.0/8', name: 'loopback (RFC 1122)' },
  {
    cidr: '169.254.0.0/16',
    name: 'link-local, including cloud metadata 169.254.169.254 (RFC 3927)',
  },
  { cidr: '172.16.0.0/12', name: 'private network (RFC 1918)' },
  { cidr: '192.0.0.0/24', name: 'IETF protocol assignments (RFC 6890)' },
  { cidr: '192.0.2.0/24', name: 'documentation TEST-NET-1 (RFC 5737)' },
  { cidr: '192.88.99.0/24', name: 'deprecated 6to4 relay anycast (RFC 7526)' },
  { cidr: '192.168.0.0/16', name: 'private network (RFC 1918)' },
  { cidr: '198.18.0.0/15', name: 'benchmarking (RFC 2544)' },
  { cidr: '198.51.100.0/24', name: 'documentation TEST-NET-2 (RFC 5737)' },
  { cidr: '203.0.113.0/24', name: 'documentation TEST-NET-3 (RFC 5737)' },
  { cidr: '224.0.0.0/4', name: 'multicast (RFC 5771)' },
  { cidr: '240.0.0.0/4', name: 'reserved for future use (RFC 1112), including broadcast' },
];

/**
 * IPv6 ranges that are not globally reachable unicast. Addresses that embed an IPv4 address
 * (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4
 * address instead, before this table is consulted; anything outside 2000::/3 (global unicast,
 * RFC 4291 §2.4) is reserved as well.
 */
export const IPV6_SPECIAL_RANGES: readonly SpecialRange[] = [
  { cidr: '::/128', name: 'unspecified address (RFC 4291)' },
  { cidr: '::1/128', name: 'loopback (RFC 4291)' },
  { cidr: '::/96', name: 'deprecated IPv4-compatible address (RFC 4291)' },
  { cidr: '64:ff9b:1::/48', name: 'local-use NAT64 (RFC 8215)' },
  { cidr: '100::/64', name: 'discard-only (RFC 6666)' },
  { cidr: '2001::/23', name: 'IETF protocol assignments, including Teredo (RFC 2928)' },
  { cidr: '2001:db8::/32', name: 'documentation (RFC 3849)' },
  { cidr: '3fff::/20', name: 'documentation (RFC 9637)' },
  { cidr: '5f00::/16', name: 'SRv6 SIDs (RFC 9602)' },
  { cidr: 'fc00::/7', name: 'unique local address (RFC 4193)' },
  { cidr: 'fe80::/10', name: 'link-local (RFC 4291)' },
  { cidr: 'fec0::/10', name: 'deprecated site-local (RFC 3879)' },
  { cidr: 'ff00::/8', name: 'multicast (RFC 4291)' },
];

const V4_BLOCKS: readonly Cidr[] = IPV4_SPECIAL_RANGES.map((r) => parseCidr(r.cidr) as Cidr);
const V6_BLOCKS: readonly Cidr[] = IPV6_SPECIAL_RANGES.map((r) => parseCidr(r.cidr) as Cidr);

const OUTSIDE_GLOBAL_UNICAST: SpecialRange = {
  cidr: '',
  name: 'reserved by the IETF (outside global unicast 2000::/3)',
};

/** The special range holding an IPv4 address (unsigned 32-bit), or undefined when public. */
export function specialRangeV4(value: number): SpecialRange | undefined {
  // A plain loop: every lookup asks this (a findIndex callback cost ~10 % of a warm lookup).
  for (let i = 0; i < V4_BLOCKS.length; i++) {
    if (cidrHasV4(V4_BLOCKS[i] as Cidr, value)) return IPV4_SPECIAL_RANGES[i];
  }
  return undefined;
}

/**
 * The IPv4 address embedded in a NAT64 64:ff9b::/96 (RFC 6052) or 6to4 2002::/16 (RFC 3056 §2)
 * address, or -1 (IPv4-mapped addresses already parse as IPv4).
 */
export function embeddedV4(w0: number, w1: number, w2: number, w3: number): number {
  if (w0 === 0x0064ff9b && w1 === 0 && w2 === 0) return w3;
  if (w0 >>> 16 === 0x2002) return (((w0 & 0xffff) << 16) | (w1 >>> 16)) >>> 0;
  return -1;
}

/** The special range holding an IPv6 address (judged by its embedded IPv4 when it has one). */
export function specialRangeV6(
  w0: number,
  w1: number,
  w2: number,
  w3: number,
): SpecialRange | undefined {
  const v4 = embeddedV4(w0, w1, w2, w3);
  if (v4 >= 0) return specialRangeV4(v4);
  for (let i = 0; i < V6_BLOCKS.length; i++) {
    if (cidrHasV6(V6_BLOCKS[i] as Cidr, w0, w1, w2, w3)) return IPV6_SPECIAL_RANGES[i];
  }
  // Global unicast is 2000::/3 (RFC 4291 §2.4): the top three bits are 001.
  return w0 >>> 29 === 1 ? undefined : OUTSIDE_GLOBAL_UNICAST;
}

/** The special range of a parsed address, or undefined when it is globally reachable. */
export function specialRangeOf(parts: AddressParts): SpecialRange | undefined {
  return parts.version === 4
    ? specialRangeV4(parts.v4)
    : specialRangeV6(parts.w0, parts.w1, parts.w2, parts.w3);
}

export interface AddressClass {
  /** True when the address is globally reachable unicast. */
  public: boolean;
  /** The address examined (for embedded-IPv4 forms, the embedded IPv4 address). */
  address: string;
  /** Why it is not public. */
  range?: SpecialRange;
}

const parts = createAddressParts();

/**
 * Classifies an IP literal (strict or legacy form). Throws nothing: a hostname or garbage
 * is reported as not public with a reason, so a guard that forgets to resolve fails closed.
 */
export function classifyAddress(input: string): AddressClass {
  if (!parseLiteralInto(input, parts)) {
    return { public: false, address: input, range: { cidr: '', name: 'not an IP address' } };
  }
  let address = parts.text;
  if (parts.version === 6) {
    const v4 = embeddedV4(parts.w0, parts.w1, parts.w2, parts.w3);
    if (v4 >= 0) address = formatV4(v4);
  }
  const range = specialRangeOf(parts);
  return range ? { public: false, address, range } : { public: true, address };
}

/** True only for globally reachable unicast addresses. Hostnames are never public. */
export function isPublicAddress(input: string): boolean {
  return classifyAddress(input).public;
}

const REASONS = new Map<SpecialRange, string>(
  [...IPV4_SPECIAL_RANGES, ...IPV6_SPECIAL_RANGES].map((r) => [r, `${r.cidr}: ${r.name}`]),
);

/** `bogon_reason` text of a special range ("10.0.0.0/8: private network (RFC 1918)"), built once. */
export function bogonReason(range: SpecialRange): string {
  return REASONS.get(range) ?? (range.cidr ? `${range.cidr}: ${range.name}` : range.name);
}
