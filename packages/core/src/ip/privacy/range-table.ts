/**
 * Overlapping address ranges of many sources, flattened into one sorted table of disjoint
 * segments: each segment holds the set of sources that cover it (a "combination" id, 0 for
 * none). A lookup is one bucket read and a binary search over typed arrays.
 *
 * IPv6 ranges are kept at /64 granularity (the top 64 bits, RFC 4291 §2.5.4: subnets are /64
 * or shorter); a longer prefix in the data covers its whole /64.
 * @module
 */
import { parseCidr } from '../../net/cidr.js';

/** Ranges of one source: IPv4 `[start, end]` pairs, IPv6 `[startHi, startLo, endHi, endLo]`. */
export interface SourceRanges {
  v4: Uint32Array;
  v6: Uint32Array;
}

export interface RangeTable {
  /**
   * IPv4, per /16 `b`: `v4Index[b]` is `0x80000000 | combination` when one combination covers
   * the whole /16, else the offset in `v4Slots` of the /16's segment count followed by its
   * segments, each `(start's low 16 bits << 16) | combination` (the first starts at 0).
   */
  readonly v4Index: Uint32Array;
  readonly v4Slots: Uint32Array;
  /**
   * IPv6 (top 64 bits): segment starts interleaved `[hi, lo, hi, lo, …]`, their combinations,
   * and per top `V6_BUCKET_BITS` bits the segment holding the bucket's first address.
   */
  readonly v6Starts: Uint32Array;
  readonly v6Codes: Uint16Array;
  readonly v6Bucket: Uint32Array;
  /** Combination id → indexes of the sources (into the input array) covering the segment. */
  readonly combos: readonly (readonly number[])[];
}

/** Parses CIDR or address lines into ranges; returns the count of lines that were not one. */
export function rangesFromTokens(tokens: Iterable<string>): SourceRanges & { invalid: number } {
  const v4: number[] = [];
  const v6: number[] = [];
  let invalid = 0;
  for (const token of tokens) {
    const c = parseCidr(token);
    if (!c) {
      invalid++;
      continue;
    }
    if (c.version === 4) v4.push(c.w0, (c.w0 | ~c.m0) >>> 0);
    else v6.push(c.w0, c.w1, (c.w0 | ~c.m0) >>> 0, (c.w1 | ~c.m1) >>> 0);
  }
  return { v4: Uint32Array.from(v4), v6: Uint32Array.from(v6), invalid };
}

export function rangeCount(r: SourceRanges): number {
  return r.v4.length / 2 + r.v6.length / 4;
}

const TWO32 = 2 ** 32;
const MAX_SOURCES = 511;

/**
 * Flattens `sources` into one table, in a sweep over the range boundaries: the sources
 * covering each segment are named by a combination id (the same set always gets the same id).
 */
export function buildRangeTable(sources: readonly SourceRanges[]): RangeTable {
  if (sources.length > MAX_SOURCES) throw new RangeError(`more than ${MAX_SOURCES} sources`);
  const words = Math.ceil(sources.length / 32) || 1;
  const active = new Int32Array(sources.length);
  const bits = new Uint32Array(words);
  const combos: number[][] = [[]];
  // Combination ids by the bit set of active sources.
  const comboIds = new Map<string, number>([[bits.join(','), 0]]);
  const apply = (s: number, delta: number) => {
    const n = (active[s] as number) + delta;
    active[s] = n;
    const w = s >>> 5;
    if (n > 0) bits[w] = (bits[w] as number) | (1 << (s & 31));
    else bits[w] = (bits[w] as number) & ~(1 << (s & 31));
  };
  const comboNow = (): number => {
    const key = bits.join(',');
    let id = comboIds.get(key);
    if (id === undefined) {
      id = combos.length;
      if (id > 0xffff) throw new RangeError('more than 65,535 source combinations');
      const members: number[] = [];
      for (let s = 0; s < sources.length; s++) if ((active[s] as number) > 0) members.push(s);
      combos.push(members);
      comboIds.set(key, id);
    }
    return id;
  };

  /** The segments of the boundaries `add` gives: (hi, lo, source * 2 + 1 if a start). */
  const sweep = (add: (boundary: (h: number, l: number, code: number) => void) => void) => {
    const hi: number[] = [];
    const lo: number[] = [];
    const src: number[] = [];
    add((h, l, code) => {
      hi.push(h);
      lo.push(l);
      src.push(code);
    });
    active.fill(0);
    bits.fill(0);
    const order = Uint32Array.from(hi.keys()).sort(
      (x, y) => (hi[x] as number) - (hi[y] as number) || (lo[x] as number) - (lo[y] as number),
    );
    const starts: number[] = [0];
    const lows: number[] = [0];
    const codes: number[] = [0];
    for (let i = 0; i < order.length; ) {
      const h = hi[order[i] as number] as number;
      const l = lo[order[i] as number] as number;
      while (i < order.length && hi[order[i] as number] === h && lo[order[i] as number] === l) {
        const code = src[order[i] as number] as number;
        apply(code >>> 1, code & 1 ? 1 : -1);
        i++;
      }
      push(starts, lows, codes, h, l, comboNow());
    }
    return { starts, lows, codes };
  };
  const v4 = sweep((boundary) =>
    sources.forEach((r, s) => {
      for (let i = 0; i < r.v4.length; i += 2) {
        boundary(r.v4[i] as number, 0, s * 2 + 1);
        const after = (r.v4[i + 1] as number) + 1;
        if (after < TWO32) boundary(after, 0, s * 2);
      }
    }),
  );
  // IPv6 (top 64 bits): a boundary is two words; end + 1 carries into the high word.
  const v6 = sweep((boundary) =>
    sources.forEach((r, s) => {
      for (let i = 0; i < r.v6.length; i += 4) {
        boundary(r.v6[i] as number, r.v6[i + 1] as number, s * 2 + 1);
        const l = (r.v6[i + 3] as number) + 1;
        const h = (r.v6[i + 2] as number) + (l === TWO32 ? 1 : 0);
        if (h < TWO32) boundary(h, l === TWO32 ? 0 : l, s * 2);
      }
    }),
  );

  const { index, slots } = packV4(v4.starts, v4.codes);
  return {
    v4Index: index,
    v4Slots: slots,
    v6Starts: Uint32Array.from(v6.starts.flatMap((h, i) => [h, v6.lows[i] as number])),
    v6Codes: Uint16Array.from(v6.codes),
    v6Bucket: bucketIndex(v6.starts, v6.lows, V6_BUCKET_BITS),
    combos,
  };
}

/** Appends a segment start, merged with the last one at the same place or of its combination. */
function push(hi: number[], lo: number[], codes: number[], h: number, l: number, code: number) {
  const last = hi.length - 1;
  if (hi[last] === h && lo[last] === l) codes[last] = code;
  else if (codes[last] !== code) {
    hi.push(h);
    lo.push(l);
    codes.push(code);
  }
}

/** The per-/16 layout of `RangeTable.v4Index` / `v4Slots` from sorted segment starts. */
function packV4(starts: number[], codes: number[]): { index: Uint32Array; slots: Uint32Array } {
  const index = new Uint32Array(65_536);
  const slots: number[] = [];
  let s = 0; // segment holding the current /16's first address
  for (let b = 0; b < 65_536; b++) {
    const first = b * 65_536;
    while (s + 1 < starts.length && (starts[s + 1] as number) <= first) s++;
    let end = s + 1;
    while (end < starts.length && (starts[end] as number) < first + 65_536) end++;
    if (end - s === 1) {
      index[b] = (0x80000000 | (codes[s] as number)) >>> 0;
      continue;
    }
    index[b] = slots.length;
    slots.push(end - s, codes[s] as number); // the first segment is clamped to the /16's start
    for (let k = s + 1; k < end; k++) {
      slots.push((((starts[k] as number) - first) * 65_536 + (codes[k] as number)) >>> 0);
    }
  }
  if (slots.length >= 0x80000000) throw new RangeError('IPv4 range table too large');
  return { index, slots: Uint32Array.from(slots) };
}

/** IPv6 bucket bits: 2^16 + 1 bucket entries are 256 KiB. */
export const V6_BUCKET_BITS = 16;

/** For each value of the top `bits` bits of the high word, the segment holding its first address. */
function bucketIndex(starts: number[], lows: number[], bits: number): Uint32Array {
  const buckets = 2 ** bits;
  const width = 2 ** (32 - bits);
  const bucket = new Uint32Array(buckets + 1);
  let s = 0;
  for (let b = 0; b < buckets; b++) {
    const first = b * width;
    // The last segment starting at or before (first, 0).
    while (
      s + 1 < starts.length &&
      ((starts[s + 1] as number) < first || (starts[s + 1] === first && lows[s + 1] === 0))
    ) {
      s++;
    }
    bucket[b] = s;
  }
  bucket[buckets] = starts.length - 1;
  // Flag the buckets that one segment covers whole: their answer needs no search (most of them).
  for (let b = 0; b < buckets; b++) {
    const s = bucket[b + 1] as number;
    if (s === bucket[b] && !(starts[s] === (b + 1) * width && lows[s] === 0)) {
      bucket[b] = (s | SINGLE) >>> 0;
    }
  }
  return bucket;
}

/** Bucket flag: one segment covers the whole bucket. */
export const SINGLE = 0x80000000;

/** Combination id of the segment holding IPv4 address `v4`. */
export function comboOfV4(t: RangeTable, v4: number): number {
  const entry = t.v4Index[v4 >>> 16] as number;
  if (entry >= 0x80000000) return entry & 0xffff;
  const slots = t.v4Slots;
  return searchV4Segments(slots, entry + 1, entry + (slots[entry] as number), v4);
}

/** The combination id of IPv4 `v4` among a /16's segments `first`..`last` of `slots`. */
export function searchV4Segments(
  slots: Uint32Array,
  first: number,
  last: number,
  v4: number,
): number {
  // Last segment whose start (low 16 bits) is <= the address's: slot <= (low << 16) | 0xffff.
  const key = ((v4 & 0xffff) * 65_536 + 0xffff) >>> 0;
  let lo = first;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((slots[mid] as number) <= key) lo = mid;
    else hi = mid - 1;
  }
  return (slots[lo] as number) & 0xffff;
}

/** Combination id of the /64 whose top words are `w0`, `w1`. */
export function comboOfV6(t: RangeTable, w0: number, w1: number): number {
  const b = w0 >>> (32 - V6_BUCKET_BITS);
  const first = t.v6Bucket[b] as number;
  if (first >= SINGLE) return t.v6Codes[first - SINGLE] as number;
  const last = ((t.v6Bucket[b + 1] as number) & ~SINGLE) >>> 0;
  return t.v6Codes[searchV6Segments(t.v6Starts, first, last, w0, w1)] as number;
}

/** The segment holding the /64 `w0`, `w1` among segments `first`..`last` of `starts`. */
export function searchV6Segments(
  starts: Uint32Array,
  first: number,
  last: number,
  w0: number,
  w1: number,
): number {
  let lo = first;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    const h = starts[mid * 2] as number;
    if (h < w0 || (h === w0 && (starts[mid * 2 + 1] as number) <= w1)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
