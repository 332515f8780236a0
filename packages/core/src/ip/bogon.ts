/**
 * Bogon detection on parsed integers, for the lookup hot path. The ranges are the ones of
 * `net/ranges.ts` (IANA special-purpose registries, CONTRACT §4), compiled once into masks, so
 * the answer always equals `classifyAddress()` (a test checks that) without BigInt work.
 * @module
 */
import { IPV4_SPECIAL_RANGES, IPV6_SPECIAL_RANGES, type SpecialRange } from '../net/ranges.js';
import { type AddressParts, createAddressParts, parseAddressInto } from './address.js';

interface V4Mask {
  base: number;
  mask: number;
  range: SpecialRange;
}
interface V6Mask {
  words: [number, number, number, number];
  masks: [number, number, number, number];
  range: SpecialRange;
}

function maskOf(bits: number): number {
  if (bits <= 0) return 0;
  if (bits >= 32) return 0xffffffff;
  return (0xffffffff << (32 - bits)) >>> 0;
}

const scratch = createAddressParts();

function compileV4(range: SpecialRange): V4Mask {
  const [addr = '', bits = '32'] = range.cidr.split('/');
  if (!parseAddressInto(addr, scratch) || scratch.version !== 4) throw new Error(range.cidr);
  const mask = maskOf(Number(bits));
  return { base: (scratch.v4 & mask) >>> 0, mask, range };
}

function compileV6(range: SpecialRange): V6Mask {
  const [addr = '', bitsText = '128'] = range.cidr.split('/');
  const parts: AddressParts = createAddressParts();
  if (!parseAddressInto(addr, parts) || parts.version !== 6) throw new Error(range.cidr);
  const bits = Number(bitsText);
  const masks: [number, number, number, number] = [
    maskOf(bits),
    maskOf(bits - 32),
    maskOf(bits - 64),
    maskOf(bits - 96),
  ];
  return {
    words: [
      (parts.w0 & masks[0]) >>> 0,
      (parts.w1 & masks[1]) >>> 0,
      (parts.w2 & masks[2]) >>> 0,
      (parts.w3 & masks[3]) >>> 0,
    ],
    masks,
    range,
  };
}

const V4_MASKS: readonly V4Mask[] = IPV4_SPECIAL_RANGES.map(compileV4);
const V6_MASKS: readonly V6Mask[] = IPV6_SPECIAL_RANGES.map(compileV6);

/**
 * First octets (IPv4) and first 16 bits (IPv6) that some special range overlaps: any other
 * address is answered "public" without scanning the range list (most lookups).
 */
const V4_OCTET_SPECIAL = new Uint8Array(256);
for (const { base, mask } of V4_MASKS) {
  for (let o = base >>> 24; o <= (base | ~mask) >>> 24; o++) V4_OCTET_SPECIAL[o] = 1;
}
const V6_TOP_SPECIAL = new Uint8Array(65_536);
for (const { words, masks } of V6_MASKS) {
  const first = words[0] >>> 16;
  const last = (words[0] | ~masks[0]) >>> 16;
  for (let t = first; t <= last; t++) V6_TOP_SPECIAL[t] = 1;
}

const OUTSIDE_GLOBAL_UNICAST: SpecialRange = {
  cidr: '',
  name: 'reserved by the IETF (outside global unicast 2000::/3)',
};

/** The special range holding an IPv4 address, or undefined when it is public. */
export function specialRangeV4(value: number): SpecialRange | undefined {
  if (V4_OCTET_SPECIAL[value >>> 24] === 0) return undefined;
  for (let i = 0; i < V4_MASKS.length; i++) {
    const entry = V4_MASKS[i] as V4Mask;
    if ((value & entry.mask) >>> 0 === entry.base) return entry.range;
  }
  return undefined;
}

/**
 * The IPv4 address embedded in an IPv6 address that stands for an IPv4 host: NAT64
 * 64:ff9b::/96 (RFC 6052) and 6to4 2002::/16 (RFC 3056 §2), or -1. (IPv4-mapped addresses are
 * already turned into IPv4 by the parser.)
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
  // Global unicast 2000::/3 outside every listed range: the usual answer, found at once.
  if (w0 >>> 29 === 1 && V6_TOP_SPECIAL[w0 >>> 16] === 0) return undefined;
  for (let i = 0; i < V6_MASKS.length; i++) {
    const e = V6_MASKS[i] as V6Mask;
    if (
      (w0 & e.masks[0]) >>> 0 === e.words[0] &&
      (w1 & e.masks[1]) >>> 0 === e.words[1] &&
      (w2 & e.masks[2]) >>> 0 === e.words[2] &&
      (w3 & e.masks[3]) >>> 0 === e.words[3]
    ) {
      return e.range;
    }
  }
  // Global unicast is 2000::/3 (RFC 4291 §2.4): the top three bits are 001.
  return w0 >>> 29 === 1 ? undefined : OUTSIDE_GLOBAL_UNICAST;
}

const REASONS = new Map<SpecialRange, string>(
  [...IPV4_SPECIAL_RANGES, ...IPV6_SPECIAL_RANGES, OUTSIDE_GLOBAL_UNICAST].map((r) => [
    r,
    r.cidr ? `${r.cidr}: ${r.name}` : r.name,
  ]),
);

/** `bogon_reason` text of a special range ("10.0.0.0/8: private-use (RFC 1918)"), built once. */
export function bogonReason(range: SpecialRange): string {
  return REASONS.get(range) ?? (range.cidr ? `${range.cidr}: ${range.name}` : range.name);
}

/** The special range of a parsed address, or undefined when it is globally reachable. */
export function specialRangeOf(parts: AddressParts): SpecialRange | undefined {
  return parts.version === 4
    ? specialRangeV4(parts.v4)
    : specialRangeV6(parts.w0, parts.w1, parts.w2, parts.w3);
}
