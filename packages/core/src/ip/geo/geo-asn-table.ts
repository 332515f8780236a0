/**
 * The lookup tables of the IP data file. IPv4: geolocation and origin AS in ONE search — the
 * flattened geolocation tree (`mmdb/range-table.ts`) split wherever an AS range starts or ends,
 * each range packed with its record id and AS entry into 8 bytes (`packV4Range`). IPv6: the
 * flattened tree's ranges of the top 64 bits behind a radix index, geolocation only. Codes:
 * record id + 1, `NO_DATA`, `DEEP | k` (IPv6 deep segment k) or `ESCAPE` (answered as no
 * data); AS entry + 1 or 0.
 * @module
 */
import type { AsnIndex } from '../asn/asn-index.js';
import { ESCAPE, Growable, type RangeTableData } from '../mmdb/range-table.js';

const TWO_32 = 2 ** 32;

/** IPv4 AS ranges as starts and codes (entry + 1, 0 for gaps), first start 0. */
function asnSegmentsV4(asn: AsnIndex | undefined): { lo: Uint32Array; value: Uint32Array } {
  const lo = new Growable();
  const value = new Growable();
  const push = (start: number, code: number) => {
    if (lo.length > 0 && lo.last === start) {
      value.array[value.length - 1] = code;
    } else if (value.last !== code) {
      lo.push(start);
      value.push(code);
    }
  };
  push(0, 0);
  if (asn) {
    const { v4Start, v4End, v4Entry } = asn.data;
    // A gap follows a row only when it ends before the next one starts: overlapping rows
    // answer as the AS index does (the last row starting at or before the address).
    for (let row = 0; row < asn.v4Rows; row++) {
      push(v4Start[row] as number, (v4Entry[row] as number) + 1);
      const after = (v4End[row] as number) + 1;
      const next = row + 1 < asn.v4Rows ? (v4Start[row + 1] as number) : TWO_32;
      if (after < next) push(after, 0);
    }
  }
  return { lo: lo.done(), value: value.done() };
}

/**
 * IPv4 ranges are two 32-bit words each, so that the search and the codes share one slot:
 * word 0 = first address's low 16 bits << 16 | geolocation code bits 0-15; word 1 =
 * geolocation code bits 16-23 << 24 | AS code (24 bits). Codes that do not fit are escaped.
 */
export const V4_ESCAPE = 0xffffff;

function packV4Range(out: Uint32Array, i: number, low: number, geo: number, asn: number): void {
  const g = geo === ESCAPE ? V4_ESCAPE : Math.min(geo, V4_ESCAPE);
  const a = Math.min(asn, V4_ESCAPE);
  out[i * 2] = ((low << 16) | (g & 0xffff)) >>> 0;
  out[i * 2 + 1] = (((g >>> 16) << 24) | a) >>> 0;
}

/** The arrays of an IPv4 fused table (what the disk cache stores). */
export interface GeoAsnV4Data {
  /** Index of the first range of each /16, plus the total at the end (65,537 values). */
  bucket: Uint32Array;
  /** Two words per range (`packV4Range`); every bucket starts with a range at its first address. */
  slots: Uint32Array;
}

/** Merges the AS ranges into the IPv4 part of a flattened tree. */
export function buildGeoAsnV4(table: RangeTableData, asn: AsnIndex | undefined): GeoAsnV4Data {
  const segments = asnSegmentsV4(asn);
  // The two piecewise-constant functions of the address (sorted starts, first 0) merged into
  // coalesced ranges: first address, geolocation code, AS code.
  const start = new Growable(1 << 16);
  const geoCode = new Growable(1 << 16);
  const asCode = new Growable(1 << 16);
  const { v4Start, v4Value } = table;
  for (let i = 0, j = 0, at = 0; ; ) {
    const g = v4Value[i] as number;
    const a = segments.value[j] as number;
    if (geoCode.last !== g || asCode.last !== a) {
      start.push(at);
      geoCode.push(g);
      asCode.push(a);
    }
    // The next start in either list.
    const nextGeo = i + 1 < v4Value.length ? (v4Start[i + 1] as number) : TWO_32;
    const nextAs = j + 1 < segments.value.length ? (segments.lo[j + 1] as number) : TWO_32;
    at = Math.min(nextGeo, nextAs);
    if (at === TWO_32) break;
    if (nextGeo === at) i++;
    if (nextAs === at) j++;
  }
  // Split per /16.
  const n = start.length;
  const starts = start.array;
  const geo = geoCode.array;
  const as = asCode.array;
  const bucket = new Uint32Array(65_537);
  const slots = new Uint32Array((n + 65_536) * 2);
  let out = 0;
  let j = 0;
  for (let b = 0; b < 65_536; b++) {
    const first = b * 65_536;
    while (j + 1 < n && (starts[j + 1] as number) <= first) j++;
    bucket[b] = out;
    packV4Range(slots, out++, 0, geo[j] as number, as[j] as number);
    for (let k = j + 1; k < n && (starts[k] as number) < first + 65_536; k++) {
      packV4Range(slots, out++, (starts[k] as number) - first, geo[k] as number, as[k] as number);
    }
  }
  bucket[65_536] = out;
  return { bucket, slots: slots.slice(0, out * 2) };
}

/** The range holding IPv4 `address` among ranges `first`..`last` of `slots` (a /16's). */
export function searchV4Slots(
  slots: Uint32Array,
  first: number,
  last: number,
  address: number,
): number {
  let lo = first;
  let hi = last;
  const low = address & 0xffff;
  // A range's word 0 is at most `key` exactly when its first address is at most `address`.
  const key = ((low << 16) | 0xffff) >>> 0;
  if (hi - lo > 16) {
    // Ranges in a /16 are mostly even (/24s): guess the position, then gallop to bracket it.
    let p = lo + (((hi - lo + 1) * low) >>> 16);
    let step = 1;
    if ((slots[p * 2] as number) <= key) {
      while (p + step <= hi && (slots[(p + step) * 2] as number) <= key) {
        p += step;
        step *= 2;
      }
      lo = p;
      hi = Math.min(hi, p + step - 1);
    } else {
      // The bucket's first range starts at its first address: p > lo.
      while (p - step >= lo && (slots[(p - step) * 2] as number) > key) {
        p -= step;
        step *= 2;
      }
      hi = p - 1;
      lo = Math.max(lo, p - step);
    }
  }
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((slots[mid * 2] as number) <= key) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The 24-bit geolocation code of the range whose word 0 is at `at`. */
export function geoOf(slots: Uint32Array, at: number): number {
  return ((slots[at] as number) & 0xffff) | (((slots[at + 1] as number) >>> 24) << 16);
}

/**
 * IPv6 index: a radix tree over the top 64 bits narrowing the ranges down to a leaf of at most
 * `LEAF_MAX`. IPv6 allocations are very uneven, so each node gets as many slots as its ranges
 * need (one per `RANGES_PER_SLOT`): dense regions get deeper nodes, empty ones none.
 */
const LEAF_MAX = 64;
const RANGES_PER_SLOT = 32;
export const ROOT_STRIDE = 16;

/** `stride` bits of the 64-bit key (w0, w1) starting `depth` bits from the top. */
export function bitsAt(w0: number, w1: number, depth: number, stride: number): number {
  const end = depth + stride;
  if (end <= 32) return (w0 >>> (32 - end)) & ((1 << stride) - 1);
  if (depth >= 32) return (w1 >>> (64 - end)) & ((1 << stride) - 1);
  const fromW1 = end - 32;
  return ((w0 & ((1 << (32 - depth)) - 1)) << fromW1) | (w1 >>> (32 - fromW1));
}

/** The arrays of an IPv6 fused table (what the disk cache stores). */
export interface GeoAsnV6Data {
  /** Per slot: (the range holding the slot's first key, child node or 0). */
  slots: Uint32Array;
  /** Per radix node: first slot, bits consumed above it, bits it indexes. */
  nodeBase: Uint32Array;
  nodeDepth: Uint8Array;
  nodeStride: Uint8Array;
  /** `V6_WORDS` words per range: its first address (top 64 bits) and its geolocation code. */
  ranges: Uint32Array;
  /** The flattened tree's deep segments (see range-table.ts), for geolocation codes `DEEP | k`. */
  deepStart: Uint32Array;
  deepHi: Uint32Array;
  deepLo: Uint32Array;
  deepCodes: Uint32Array;
}

/**
 * The radix index over the IPv6 part of a flattened tree (`table` undefined: no IPv6
 * geolocation). The AS of an IPv6 address comes from the AS index: merging its rows would add
 * a fourth word per range and a fallback for AS boundaries inside a /64.
 */
export function buildGeoV6(table: RangeTableData | undefined): GeoAsnV6Data {
  const d = table;
  const present = d !== undefined && d.v6Value.length > 0;
  const n = present ? d.v6Value.length : 1;
  const packed = new Uint32Array(n * V6_WORDS);
  for (let i = 0; present && i < n; i++) {
    packed[i * V6_WORDS] = d.v6Hi[i] as number;
    packed[i * V6_WORDS + 1] = d.v6Lo[i] as number;
    packed[i * V6_WORDS + 2] = d.v6Value[i] as number;
  }

  const slots = new Growable(1 << 17);
  const base = new Growable();
  const depths = new Growable();
  const strides = new Growable();
  const addNode = () => {
    base.push(0);
    depths.push(0);
    strides.push(0);
    return base.length - 1;
  };
  /** Range k's first key <= (h, l). */
  const startsAtOrBefore = (k: number, h: number, l: number) => {
    const kh = packed[k * V6_WORDS] as number;
    return kh < h || (kh === h && (packed[k * V6_WORDS + 1] as number) <= l);
  };
  // Node `id` covers the keys with the `depth`-bit prefix (ph, pl) and the ranges [lo, hi].
  const build = (id: number, ph: number, pl: number, depth: number, lo: number, hi: number) => {
    const count = hi - lo + 1;
    const stride =
      id === 0
        ? ROOT_STRIDE
        : Math.max(1, Math.min(16, 64 - depth, Math.ceil(Math.log2(count / RANGES_PER_SLOT))));
    const first = slots.length / 2;
    base.array[id] = first;
    depths.array[id] = depth;
    strides.array[id] = stride;
    const width = 2 ** stride;
    // Bit position (from the least significant end of the 64-bit key) of the slot field.
    const at = 64 - depth - stride;
    const slotHi = new Uint32Array(width);
    const slotLo = new Uint32Array(width);
    let j = lo;
    for (let s = 0; s < width; s++) {
      let h = ph;
      let l = pl;
      if (at >= 32) h = (ph + s * 2 ** (at - 32)) >>> 0;
      else if (at + stride <= 32) l = (pl + s * 2 ** at) >>> 0;
      else {
        h = (ph + Math.floor(s / 2 ** (32 - at))) >>> 0;
        l = (pl + ((s * 2 ** at) % TWO_32)) >>> 0;
      }
      slotHi[s] = h;
      slotLo[s] = l;
      while (j + 1 <= hi && startsAtOrBefore(j + 1, h, l)) j++;
      slots.push(j);
      slots.push(0);
    }
    slots.push(hi);
    slots.push(0);
    for (let s = 0; s < width; s++) {
      const a = slots.array[(first + s) * 2] as number;
      const b = slots.array[(first + s + 1) * 2] as number;
      if (b - a + 1 <= LEAF_MAX || depth + stride >= 64) continue;
      const child = addNode();
      slots.array[(first + s) * 2 + 1] = child;
      build(child, slotHi[s] as number, slotLo[s] as number, depth + stride, a, b);
    }
  };
  addNode();
  build(0, 0, 0, 0, 0, n - 1);
  return {
    slots: slots.done(),
    nodeBase: base.done(),
    nodeDepth: Uint8Array.from(depths.done()),
    nodeStride: Uint8Array.from(strides.done()),
    ranges: packed,
    deepStart: d?.deepStart ?? Uint32Array.of(0),
    deepHi: d?.deepHi ?? new Uint32Array(0),
    deepLo: d?.deepLo ?? new Uint32Array(0),
    deepCodes: d?.deepValue ?? new Uint32Array(0),
  };
}

/** Words per IPv6 range (see `GeoAsnV6Data.ranges`). */
export const V6_WORDS = 3;

/** The range holding an IPv6 address with top words `w0`, `w1` among ranges `first`..`last`. */
export function searchV6Leaf(
  ranges: Uint32Array,
  first: number,
  last: number,
  w0: number,
  w1: number,
): number {
  let lo = first;
  let hi = last;
  // Halve a long leaf, then walk forward: the last few candidates share a cache line or two.
  while (hi - lo > 8) {
    const mid = (lo + hi + 1) >>> 1;
    const h = ranges[mid * V6_WORDS] as number;
    if (h < w0 || (h === w0 && (ranges[mid * V6_WORDS + 1] as number) <= w1)) lo = mid;
    else hi = mid - 1;
  }
  while (lo < hi) {
    const h = ranges[(lo + 1) * V6_WORDS] as number;
    if (h > w0 || (h === w0 && (ranges[(lo + 1) * V6_WORDS + 1] as number) > w1)) break;
    lo++;
  }
  return lo;
}
