/**
 * The one CIDR grammar of netdiag, parsed once into masked 32-bit words so that containment is
 * a few integer comparisons (the SSRF guard, bogon test and SPF run it per request); and the
 * inverse: address ranges → the fewest CIDR blocks covering them.
 * @module
 */
import { InvalidInputError } from '../errors.js';
import {
  type AddressParts,
  bigIntToV6,
  createAddressParts,
  formatV4,
  formatV6,
  parseAddressInto,
} from '../ip/address.js';
import { parseLiteralInto } from './ip.js';

/**
 * A parsed block. IPv4 keeps its network in `w0` (mask `m0`; the other words are 0); IPv6 in
 * four big-endian words. The network words are already masked.
 */
export interface Cidr {
  readonly version: 4 | 6;
  /** Prefix length: 0–32 (IPv4) or 0–128 (IPv6). */
  readonly bits: number;
  readonly w0: number;
  readonly w1: number;
  readonly w2: number;
  readonly w3: number;
  readonly m0: number;
  readonly m1: number;
  readonly m2: number;
  readonly m3: number;
}

/** The network mask of one 32-bit word whose first `bits` bits are network bits (clamped). */
export function prefixMask(bits: number): number {
  if (bits <= 0) return 0;
  if (bits >= 32) return 0xffffffff;
  return (0xffffffff << (32 - bits)) >>> 0;
}

/** A block from an address as words (IPv4: `w0`) and a prefix length; host bits are cleared. */
export function cidrFromWords(
  version: 4 | 6,
  bits: number,
  w0: number,
  w1 = 0,
  w2 = 0,
  w3 = 0,
): Cidr {
  const v6 = version === 6;
  const m0 = prefixMask(bits);
  const m1 = v6 ? prefixMask(bits - 32) : 0;
  const m2 = v6 ? prefixMask(bits - 64) : 0;
  const m3 = v6 ? prefixMask(bits - 96) : 0;
  return {
    version,
    bits,
    w0: (w0 & m0) >>> 0,
    w1: (w1 & m1) >>> 0,
    w2: (w2 & m2) >>> 0,
    w3: (w3 & m3) >>> 0,
    m0,
    m1,
    m2,
    m3,
  };
}

const scratch = createAddressParts();

/**
 * The block of a strict IP `address` and prefix length `bits`, or `undefined`. An IPv4-mapped
 * address with a prefix of 96 or more is the IPv4 block it maps; with a shorter one it is
 * refused, since IPv4 addresses are always compared as IPv4.
 */
export function cidrOf(address: string, bits: number): Cidr | undefined {
  if (!parseAddressInto(address, scratch)) return undefined;
  return cidrOfParts(scratch, address.includes(':'), bits);
}

function cidrOfParts(parts: AddressParts, writtenAsV6: boolean, bits: number): Cidr | undefined {
  const max = writtenAsV6 ? 128 : 32;
  if (!Number.isInteger(bits) || bits < 0 || bits > max) return undefined;
  if (parts.version === 4) {
    if (!writtenAsV6) return cidrFromWords(4, bits, parts.v4);
    return bits >= 96 ? cidrFromWords(4, bits - 96, parts.v4) : undefined;
  }
  return cidrFromWords(6, bits, parts.w0, parts.w1, parts.w2, parts.w3);
}

/**
 * Parses `address/bits` or a bare address (a single host), the address any literal that
 * `parseIpLiteral` reads, blanks around it ignored; `undefined` for anything else.
 */
export function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf('/');
  const address = (slash < 0 ? text : text.slice(0, slash)).trim();
  const bitsText = slash < 0 ? undefined : text.slice(slash + 1).trim();
  if (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)) return undefined;
  // A legacy IPv4 form (`127.1`) never holds a colon.
  const v6 = address.includes(':');
  if (!parseLiteralInto(address, scratch)) return undefined;
  const bits = bitsText === undefined ? (v6 ? 128 : 32) : Number(bitsText);
  return cidrOfParts(scratch, v6, bits);
}

/** Canonical `network/bits` text of a block (`10.0.0.0/8`, `2001:db8::/32`). */
export function formatCidr(c: Cidr): string {
  const network = c.version === 4 ? formatV4(c.w0) : formatV6(c.w0, c.w1, c.w2, c.w3);
  return `${network}/${c.bits}`;
}

/** True when the IPv4 address `v4` (unsigned 32-bit) lies in `c`. */
export function cidrHasV4(c: Cidr, v4: number): boolean {
  return c.version === 4 && (v4 & c.m0) >>> 0 === c.w0;
}

/** True when the IPv6 address of four big-endian words lies in `c`. */
export function cidrHasV6(c: Cidr, w0: number, w1: number, w2: number, w3: number): boolean {
  return (
    c.version === 6 &&
    (w0 & c.m0) >>> 0 === c.w0 &&
    (w1 & c.m1) >>> 0 === c.w1 &&
    (w2 & c.m2) >>> 0 === c.w2 &&
    (w3 & c.m3) >>> 0 === c.w3
  );
}

/** True when a parsed address lies in `c` (IPv4-mapped addresses parse as IPv4). */
export function cidrHas(c: Cidr, address: AddressParts): boolean {
  return address.version === 4
    ? cidrHasV4(c, address.v4)
    : cidrHasV6(c, address.w0, address.w1, address.w2, address.w3);
}

/** A parsed list of CIDR blocks with a membership test. */
export interface CidrSet {
  /** The blocks as canonical `network/bits` text. */
  readonly cidrs: readonly string[];
  /** True when `ip` (any literal `parseIpLiteral` reads) lies in one of the blocks. */
  has(ip: string): boolean;
}

const lookup = createAddressParts();

/**
 * Parses a list of `a.b.c.d/n` and `x::/n` blocks (a bare address is a single host; blank
 * entries are skipped). Throws `InvalidInputError` naming the first entry that is not one.
 */
export function parseCidrList(list: readonly string[]): CidrSet {
  const blocks: Cidr[] = [];
  for (const raw of list) {
    if (raw.trim() === '') continue;
    const block = parseCidr(raw);
    if (!block) {
      throw new InvalidInputError(
        `"${raw.trim()}" is not an IP address or CIDR range: write it like 127.0.0.0/8, 10.1.2.3 or ::1/128 (IPv4 prefixes 0–32, IPv6 0–128)`,
      );
    }
    blocks.push(block);
  }
  const cidrs = blocks.map(formatCidr);
  return {
    cidrs,
    has(input: string): boolean {
      if (blocks.length === 0) return false;
      return parseLiteralInto(input, lookup) && blocks.some((block) => cidrHas(block, lookup));
    },
  };
}

// --- Ranges → blocks ---

/** Largest aligned block starting at `first` that fits in `first..last` (IPv4), as host bits. */
function blockBitsV4(first: number, last: number): number {
  // Alignment: the number of trailing zero bits of `first` (32 for 0.0.0.0).
  let bits = first === 0 ? 32 : 31 - Math.clz32(first & -first);
  while (bits > 0 && 2 ** bits > last - first + 1) bits--;
  return bits;
}

/** The fewest CIDR blocks covering the inclusive IPv4 range `first..last`. */
export function v4RangeToCidrs(first: number, last: number): string[] {
  const out: string[] = [];
  for (let at = first, bits = 0; at <= last; at += 2 ** bits) {
    bits = blockBitsV4(at, last);
    out.push(`${formatV4(at)}/${32 - bits}`);
  }
  return out;
}

/** How many blocks {@link v4RangeToCidrs} gives, without building them. */
export function v4RangeCidrCount(first: number, last: number): number {
  let count = 0;
  for (let at = first; at <= last; count++) at += 2 ** blockBitsV4(at, last);
  return count;
}

function blockBitsV6(first: bigint, last: bigint): number {
  let bits = 0;
  while (bits < 128 && ((first >> BigInt(bits)) & 1n) === 0n) bits++;
  while (bits > 0 && 1n << BigInt(bits) > last - first + 1n) bits--;
  return bits;
}

/** The fewest CIDR blocks covering the inclusive IPv6 range `first..last`. */
export function v6RangeToCidrs(first: bigint, last: bigint): string[] {
  const out: string[] = [];
  for (let at = first, bits = 0; at <= last; at += 1n << BigInt(bits)) {
    bits = blockBitsV6(at, last);
    out.push(`${bigIntToV6(at)}/${128 - bits}`);
  }
  return out;
}

/** How many blocks {@link v6RangeToCidrs} gives, without building them. */
export function v6RangeCidrCount(first: bigint, last: bigint): number {
  let count = 0;
  for (let at = first; at <= last; count++) at += 1n << BigInt(blockBitsV6(at, last));
  return count;
}
