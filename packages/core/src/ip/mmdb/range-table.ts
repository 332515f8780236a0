/**
 * A MaxMind DB search tree flattened into bucketed, sorted range tables, so that a lookup
 * costs a table read and a short binary search over a few cache lines instead of a walk of
 * up to 32 (IPv4) or 128 (IPv6) dependent reads scattered over a 40-60 MB tree.
 *
 * - IPv4: 65,536 buckets, one per /16; inside a bucket, range starts are the low 16 bits
 *   (`Uint16Array`) and every bucket begins with a range starting at its first address. The
 *   DB-IP City Lite tree (6.3 million nodes) becomes 3.7 million ranges, 56 per bucket on
 *   average: about 6 search steps within 2 or 3 cache lines.
 * - IPv6: ranges of the top 64 bits (RFC 4291 §2.5.4: global unicast networks are /64 or
 *   shorter), with buckets on the top bits of the first word. A /64 that the tree divides
 *   further gets a "deep segment": the ranges of its low 64 bits. Any subtree reached by a
 *   second path (the `2002::/16` alias of the IPv4 subtree, MaxMind-DB-spec.md "IPv4
 *   addresses in an IPv6 tree") is marked ESCAPE: those lookups walk the tree as before. So
 *   do records the tree points at outside the data section (a corrupt file opened `lazy` or
 *   `trusted`) and paths deeper than the address: the walk raises its usual error.
 *
 * Values are dense record ids (+1; 0 = no data), assigned in the order the walk meets records,
 * so callers can cache shaped records in a plain array instead of a hash table.
 * The answers are those of `MmdbDatabase.findV4`/`findV6` by construction; tests compare them
 * on the embedded data and on every MaxMind test database. Lookups in the app go through
 * `geo/geo-asn-table.ts`, which merges the AS ranges into these ranges and indexes them anew;
 * the buckets here serve this class's own `findV4`/`findV6` (the reference in tests).
 * @module
 */
import type { MmdbDatabase } from './database.js';

/** A table value meaning "the table cannot answer: walk the tree". */
export const ESCAPE = 0xffffffff;
/** A table value meaning "no data for this address". */
export const NO_DATA = 0;
/**
 * Flag of an IPv6 table value `DEEP | k`: this /64 is divided further; its ranges of the low
 * 64 bits are deep segment `k`. (Record ids + 1 stay below 2^31; `ESCAPE` is checked first.)
 */
export const DEEP = 0x80000000;

/** Bits of the IPv4 bucket index: one bucket per /16 (the low 16 bits fit a Uint16Array). */
const V4_BUCKET_BITS = 16;
/** Most IPv6 bucket bits: 2^20 + 1 bucket starts are 4 MiB. */
const V6_MAX_BUCKET_BITS = 20;

/** The arrays of a flattened tree (geo-asn-table.ts merges the AS ranges into them). */
export interface RangeTableData {
  /** Entry index of the first range of each /16, plus the total at the end (65,537 values). */
  v4Bucket: Uint32Array;
  /** Low 16 bits of each range's first address (the bucket gives the high 16). */
  v4Low: Uint16Array;
  /** Record id + 1, `NO_DATA` or `ESCAPE` per range. */
  v4Value: Uint32Array;
  /** log2 of the IPv6 bucket count (0 when the tree has no IPv6 part). */
  v6Bits: number;
  /** Per bucket of the first word's top `v6Bits` bits: the entry holding the bucket's start. */
  v6Bucket: Uint32Array;
  /** First address of each IPv6 range: top 64 bits as two words. */
  v6Hi: Uint32Array;
  v6Lo: Uint32Array;
  v6Value: Uint32Array;
  /**
   * Deep segments (the /64s divided further): segment k's ranges are `deepStart[k]` up to
   * `deepStart[k + 1]`, each with its first address's low 64 bits and its value.
   */
  deepStart: Uint32Array;
  deepHi: Uint32Array;
  deepLo: Uint32Array;
  deepValue: Uint32Array;
  /** Tree record value (data pointer) of each record id. */
  pointers: Uint32Array;
}

/** A growable Uint32Array (the walk emits millions of entries; JS arrays of them are slow). */
export class Growable {
  array: Uint32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.array = new Uint32Array(capacity);
  }
  /** The last value pushed (undefined when empty). */
  get last(): number | undefined {
    return this.length > 0 ? this.array[this.length - 1] : undefined;
  }
  push(value: number): void {
    if (this.length === this.array.length) {
      const next = new Uint32Array(this.array.length * 2);
      next.set(this.array);
      this.array = next;
    }
    this.array[this.length++] = value;
  }
  done(): Uint32Array {
    return this.array.slice(0, this.length);
  }
}

/** Flattens the tree of `db` (one walk of every node: under a second per DB-IP file). */
export function buildRangeTableData(db: MmdbDatabase): RangeTableData {
  const count = db.nodeCount;
  const visited = new Uint8Array(count);
  const pointers = new Growable();
  const idByPointer = new Map<number, number>();
  let lastPointer = -1;
  let lastCode = NO_DATA;

  /** Table value of a terminal record value (no data, a data pointer, or corruption). */
  const codeOf = (value: number): number => {
    if (value === count) return NO_DATA;
    if (value === lastPointer) return lastCode;
    if (!db.isDataPointer(value) || value === ESCAPE) return ESCAPE;
    let id = idByPointer.get(value);
    if (id === undefined) {
      id = pointers.length;
      pointers.push(value);
      idByPointer.set(value, id);
    }
    lastPointer = value;
    lastCode = id + 1;
    return lastCode;
  };

  // IPv4: from the root of an IPv4 tree, from ::/96 in an IPv6 tree (MaxMind-DB-spec.md).
  const v4Keys = new Growable();
  const v4Values = new Growable();
  const emitV4 = (key: number, code: number) => {
    if (v4Values.length > 0 && v4Values.array[v4Values.length - 1] === code) return;
    v4Keys.push(key);
    v4Values.push(code);
  };
  const walkV4 = (node: number, depth: number, key: number): void => {
    visited[node] = 1;
    for (let bit = 0; bit < 2; bit++) {
      const value = db.readRecord(node, bit);
      const childKey = bit ? (key | (1 << (31 - depth))) >>> 0 : key;
      if (value >= count) emitV4(childKey, codeOf(value));
      else if (depth + 1 >= 32 || visited[value]) emitV4(childKey, ESCAPE);
      else walkV4(value, depth + 1, childKey);
    }
  };
  const v4Root = db.ipv4Start;
  if (v4Root >= count) emitV4(0, codeOf(v4Root));
  else walkV4(v4Root, 0, 0);

  // Below /64: the low 64 bits of a /64 the tree divides further, as one deep segment.
  const deepStart = new Growable();
  const deepHi = new Growable();
  const deepLo = new Growable();
  const deepValues = new Growable();
  let segmentFirst = 0;
  const emitDeep = (hi: number, lo: number, code: number) => {
    if (deepValues.length > segmentFirst && deepValues.last === code) return;
    deepHi.push(hi);
    deepLo.push(lo);
    deepValues.push(code);
  };
  const walkDeep = (node: number, depth: number, hi: number, lo: number): void => {
    visited[node] = 1;
    for (let bit = 0; bit < 2; bit++) {
      const value = db.readRecord(node, bit);
      let childHi = hi;
      let childLo = lo;
      if (bit) {
        if (depth < 96) childHi = (hi | (1 << (95 - depth))) >>> 0;
        else childLo = (lo | (1 << (127 - depth))) >>> 0;
      }
      if (value >= count) emitDeep(childHi, childLo, codeOf(value));
      else if (depth + 1 >= 128 || visited[value]) emitDeep(childHi, childLo, ESCAPE);
      else walkDeep(value, depth + 1, childHi, childLo);
    }
  };
  /** Flattens the subtree under a /64 into a new deep segment; returns its table value. */
  const deepSegment = (node: number): number => {
    segmentFirst = deepValues.length;
    deepStart.push(segmentFirst);
    walkDeep(node, 64, 0, 0);
    return (DEEP | (deepStart.length - 1)) >>> 0;
  };

  // IPv6: the top 64 bits; a node still reached at depth 64 starts a deep segment.
  const v6Hi = new Growable();
  const v6Lo = new Growable();
  const v6Values = new Growable();
  const emitV6 = (hi: number, lo: number, code: number) => {
    if (v6Values.length > 0 && v6Values.array[v6Values.length - 1] === code) return;
    v6Hi.push(hi);
    v6Lo.push(lo);
    v6Values.push(code);
  };
  const walkV6 = (node: number, depth: number, hi: number, lo: number): void => {
    visited[node] = 1;
    for (let bit = 0; bit < 2; bit++) {
      const value = db.readRecord(node, bit);
      let childHi = hi;
      let childLo = lo;
      if (bit) {
        if (depth < 32) childHi = (hi | (1 << (31 - depth))) >>> 0;
        else childLo = (lo | (1 << (63 - depth))) >>> 0;
      }
      if (value >= count) emitV6(childHi, childLo, codeOf(value));
      else if (visited[value]) emitV6(childHi, childLo, ESCAPE);
      else if (depth + 1 >= 64) emitV6(childHi, childLo, deepSegment(value));
      else walkV6(value, depth + 1, childHi, childLo);
    }
  };
  // The IPv4 walk ran first, so the 2002::/16 alias of its subtree is met as visited: ESCAPE.
  if (db.metadata.ip_version === 6) walkV6(0, 0, 0, 0);

  deepStart.push(deepValues.length);
  const v4 = bucketV4(v4Keys.done(), v4Values.done());
  const v6 = bucketV6(v6Hi.done(), v6Lo.done(), v6Values.done());
  return {
    ...v4,
    ...v6,
    deepStart: deepStart.done(),
    deepHi: deepHi.done(),
    deepLo: deepLo.done(),
    deepValue: deepValues.done(),
    pointers: pointers.done(),
  };
}

/** Splits the IPv4 ranges per /16, each bucket starting with the range holding its start. */
function bucketV4(
  keys: Uint32Array,
  values: Uint32Array,
): Pick<RangeTableData, 'v4Bucket' | 'v4Low' | 'v4Value'> {
  const buckets = 1 << V4_BUCKET_BITS;
  const span = 1 << (32 - V4_BUCKET_BITS);
  const bucket = new Uint32Array(buckets + 1);
  const low = new Uint16Array(keys.length + buckets);
  const value = new Uint32Array(keys.length + buckets);
  let out = 0;
  let j = 0;
  const n = keys.length;
  for (let b = 0; b < buckets; b++) {
    const first = b * span;
    while (j + 1 < n && (keys[j + 1] as number) <= first) j++;
    bucket[b] = out;
    low[out] = 0;
    value[out++] = values[j] as number;
    let k = j + 1;
    while (k < n && (keys[k] as number) < first + span) {
      low[out] = (keys[k] as number) - first;
      value[out++] = values[k] as number;
      k++;
    }
  }
  bucket[buckets] = out;
  return { v4Bucket: bucket, v4Low: low.slice(0, out), v4Value: value.slice(0, out) };
}

/** IPv6 buckets: for each top-bits value, the last range starting at or before its start. */
function bucketV6(
  hi: Uint32Array,
  lo: Uint32Array,
  values: Uint32Array,
): Pick<RangeTableData, 'v6Bits' | 'v6Bucket' | 'v6Hi' | 'v6Lo' | 'v6Value'> {
  const n = values.length;
  if (n === 0) {
    return {
      v6Bits: 0,
      v6Bucket: new Uint32Array(0),
      v6Hi: hi,
      v6Lo: lo,
      v6Value: values,
    };
  }
  // About one bucket per range, at most 2^20.
  const bits = Math.max(1, Math.min(V6_MAX_BUCKET_BITS, Math.ceil(Math.log2(n))));
  const buckets = 2 ** bits;
  const shift = 32 - bits;
  const bucket = new Uint32Array(buckets + 1);
  let j = 0;
  for (let b = 0; b < buckets; b++) {
    const first = (b * 2 ** shift) >>> 0;
    // The walk starts at ::, so entry 0 starts at or before every bucket.
    while (j + 1 < n && startsAtOrBefore(hi[j + 1] as number, lo[j + 1] as number, first)) j++;
    bucket[b] = j;
  }
  bucket[buckets] = n - 1;
  return { v6Bits: bits, v6Bucket: bucket, v6Hi: hi, v6Lo: lo, v6Value: values };
}

/** (hi, lo) <= (first, 0) */
function startsAtOrBefore(hi: number, lo: number, first: number): boolean {
  return hi < first || (hi === first && lo === 0);
}

/** The value of (w2, w3) in deep segment `k` (ranges given as separate hi/lo arrays). */
export function searchDeep(
  hi: Uint32Array,
  lo: Uint32Array,
  values: Uint32Array,
  starts: Uint32Array,
  k: number,
  w2: number,
  w3: number,
): number {
  let a = starts[k] as number;
  let b = (starts[k + 1] as number) - 1;
  while (a < b) {
    const mid = (a + b + 1) >>> 1;
    const h = hi[mid] as number;
    if (h < w2 || (h === w2 && (lo[mid] as number) <= w3)) a = mid;
    else b = mid - 1;
  }
  return values[a] as number;
}
