/**
 * The special-purpose address table and `isPublicAddress()`: the heart of the SSRF guard and
 * of bogon detection. Sources: IANA IPv4 Special-Purpose Address Registry (RFC 6890 and
 * updates) and IANA IPv6 Special-Purpose Address Registry, as listed in CONTRACT §4.
 * https://www.iana.org/assignments/iana-ipv4-special-registry/
 * https://www.iana.org/assignments/iana-ipv6-special-registry/
 * @module
 */
import { ipv4ToUint32, ipv6ToBigInt, parseIpLiteral, uint32ToIPv4 } from './ip.js';

export interface SpecialRange {
  cidr: string;
  name: string;
}

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

interface V4Entry {
  base: number;
  mask: number;
  range: SpecialRange;
}
interface V6Entry {
  base: bigint;
  mask: bigint;
  range: SpecialRange;
}

const V6_ALL = (1n << 128n) - 1n;

const v4Table: V4Entry[] = IPV4_SPECIAL_RANGES.map((range) => {
  const { base, mask } = parseV4Cidr(range.cidr);
  return { base, mask, range };
});
const v6Table: V6Entry[] = IPV6_SPECIAL_RANGES.map((range) => {
  const { base, mask } = parseV6Cidr(range.cidr);
  return { base, mask, range };
});

const MAPPED = { base: 0xffffn << 32n, mask: V6_ALL ^ 0xffffffffn }; // ::ffff:0:0/96
const NAT64 = { base: 0x64ff9bn << 96n, mask: V6_ALL ^ 0xffffffffn }; // 64:ff9b::/96
const SIX_TO_FOUR = { base: 0x2002n << 112n, mask: 0xffffn << 112n }; // 2002::/16
const GLOBAL_UNICAST = { base: 1n << 125n, mask: 7n << 125n }; // 2000::/3

export interface AddressClass {
  /** True when the address is globally reachable unicast. */
  public: boolean;
  /** The address examined (for embedded-IPv4 forms, the embedded IPv4 address). */
  address: string;
  /** Why it is not public. */
  range?: SpecialRange;
}

/**
 * Classifies an IP literal (strict or legacy form). Throws nothing: a hostname or garbage
 * is reported as not public with a reason, so a guard that forgets to resolve fails closed.
 */
export function classifyAddress(input: string): AddressClass {
  const ip = parseIpLiteral(input);
  if (!ip) {
    return { public: false, address: input, range: { cidr: '', name: 'not an IP address' } };
  }
  if (ip.version === 4) return classifyV4(ipv4ToUint32(ip.address));
  const value = ipv6ToBigInt(ip.address);
  for (const embed of [MAPPED, NAT64]) {
    if ((value & embed.mask) === embed.base) return classifyV4(Number(value & 0xffffffffn));
  }
  if ((value & SIX_TO_FOUR.mask) === SIX_TO_FOUR.base) {
    // 6to4: the IPv4 address sits in bits 16..47 (RFC 3056 §2).
    return classifyV4(Number((value >> 80n) & 0xffffffffn));
  }
  for (const entry of v6Table) {
    if ((value & entry.mask) === entry.base) {
      return { public: false, address: ip.address, range: entry.range };
    }
  }
  if ((value & GLOBAL_UNICAST.mask) !== GLOBAL_UNICAST.base) {
    return {
      public: false,
      address: ip.address,
      range: { cidr: '', name: 'reserved by the IETF (outside global unicast 2000::/3)' },
    };
  }
  return { public: true, address: ip.address };
}

/** True only for globally reachable unicast addresses. Hostnames are never public. */
export function isPublicAddress(input: string): boolean {
  return classifyAddress(input).public;
}

function classifyV4(value: number): AddressClass {
  const address = uint32ToIPv4(value);
  for (const entry of v4Table) {
    if ((value & entry.mask) >>> 0 === entry.base) {
      return { public: false, address, range: entry.range };
    }
  }
  return { public: true, address };
}

// --- CIDR helpers, also used for NETDIAG_ALLOWED_TARGETS ---

function parseV4Cidr(cidr: string): { base: number; mask: number } {
  const [addr = '', bitsText = '32'] = cidr.split('/');
  const bits = Number(bitsText);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { base: (ipv4ToUint32(addr) & mask) >>> 0, mask };
}

function parseV6Cidr(cidr: string): { base: bigint; mask: bigint } {
  const [addr = '', bitsText = '128'] = cidr.split('/');
  const bits = BigInt(bitsText);
  const mask = bits === 0n ? 0n : (V6_ALL << (128n - bits)) & V6_ALL;
  return { base: ipv6ToBigInt(addr) & mask, mask };
}

/** A parsed list of CIDR ranges with a membership test. */
export interface CidrSet {
  readonly cidrs: readonly string[];
  has(ip: string): boolean;
}

/**
 * Parses `a.b.c.d/n` and `x::/n` ranges (a bare address means a single host).
 * Throws `Error` with the offending entry for a malformed one.
 */
export function parseCidrList(list: readonly string[]): CidrSet {
  const v4: { base: number; mask: number }[] = [];
  const v6: { base: bigint; mask: bigint }[] = [];
  const cidrs: string[] = [];
  for (const raw of list) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [addr = '', bits] = entry.split('/');
    const ip = parseIpLiteral(addr);
    const max = ip?.version === 4 ? 32 : 128;
    const n = bits === undefined ? max : Number(bits);
    if (!ip || !/^\d*$/.test(bits ?? '') || !Number.isInteger(n) || n < 0 || n > max) {
      throw new Error(`"${entry}" is not a CIDR range such as 127.0.0.0/8 or ::1/128`);
    }
    if (ip.version === 4) v4.push(parseV4Cidr(`${ip.address}/${n}`));
    else v6.push(parseV6Cidr(`${ip.address}/${n}`));
    cidrs.push(`${ip.address}/${n}`);
  }
  return {
    cidrs,
    has(input: string): boolean {
      const ip = parseIpLiteral(input);
      if (!ip) return false;
      if (ip.version === 4) {
        const value = ipv4ToUint32(ip.address);
        return v4.some((r) => (value & r.mask) >>> 0 === r.base);
      }
      const value = ipv6ToBigInt(ip.address);
      return v6.some((r) => (value & r.mask) === r.base);
    },
  };
}
