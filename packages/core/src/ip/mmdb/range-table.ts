/**
 * A MaxMind DB search tree flattened into sorted ranges: a short binary search instead of a
 * walk of up to 128 dependent reads.
 *
 * - IPv4: ranges of the 32-bit address.
 * - IPv6: ranges of the top 64 bits (RFC 4291 §2.5.4: global unicast networks are /64 or
 *   shorter). A /64 that the tree divides further gets a "deep segment": the ranges of its low
 *   64 bits. Any subtree reached by a second path (the `2002::/16` alias of the IPv4 subtree,
 *   MaxMind-DB-spec.md "IPv4 addresses in an IPv6 tree") is marked ESCAPE, and so are records
 *   outside the data section and paths deeper than the address.
 *
 * Values are dense record ids (+1; 0 = no data) in the order the walk meets records. The
 * answers are those of `MmdbDatabase.findV4`/`findV6` by construction.
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

/** The arrays of a flattened tree (geo-asn-table.ts merges the AS ranges into them). */
export interface RangeTableData {
  /** First address of each IPv4 range, in order (the first is 0). */
  v4Start: Uint32Array;
  /** Record id + 1, `NO_DATA` or `ESCAPE` per range. */
  v4Value: Uint32Array;
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

/** A growable Uint32Array (the walk emits millions of entries). */
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

/** Ranges of a 64-bit key (hi, lo), coalesced; those from `first` on are one segment. */
class Ranges {
  hi = new Growable();
  lo = new Growable();
  value = new Growable();
  first = 0;
  push(hi: number, lo: number, code: number): void {
    if (this.value.length > this.first && this.value.last === code) return;
    this.hi.push(hi);
    this.lo.push(lo);
    this.value.push(code);
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

  /**
   * Walks the subtree under `node`, `depth` bits into a key of `bits` bits. A node met twice is
   * ESCAPE; a node still reached after `bits` bits gets the value `atEnd` gives it.
   */
  const walk = (
    out: Ranges,
    node: number,
    depth: number,
    bits: number,
    hi: number,
    lo: number,
    atEnd: (node: number) => number,
  ): void => {
    visited[node] = 1;
    for (let bit = 0; bit < 2; bit++) {
      const value = db.readRecord(node, bit);
      let childHi = hi;
      let childLo = lo;
      if (bit) {
        if (depth < 32) childHi = (hi | (1 << (31 - depth))) >>> 0;
        else childLo = (lo | (1 << (63 - depth))) >>> 0;
      }
      if (value >= count) out.push(childHi, childLo, codeOf(value));
      else if (visited[value]) out.push(childHi, childLo, ESCAPE);
      else if (depth + 1 >= bits) out.push(childHi, childLo, atEnd(value));
      else walk(out, value, depth + 1, bits, childHi, childLo, atEnd);
    }
  };
  const escaped = () => ESCAPE;

  // IPv4: from the root of an IPv4 tree, from ::/96 in an IPv6 tree (MaxMind-DB-spec.md).
  const v4 = new Ranges();
  const v4Root = db.ipv4Start;
  if (v4Root >= count) v4.push(0, 0, codeOf(v4Root));
  else walk(v4, v4Root, 0, 32, 0, 0, escaped);

  // IPv6: the top 64 bits; a node still reached at depth 64 starts a deep segment, the
  // ranges of the low 64 bits of that /64.
  const deep = new Ranges();
  const deepStart = new Growable();
  const deepSegment = (node: number): number => {
    deep.first = deep.value.length;
    deepStart.push(deep.first);
    walk(deep, node, 0, 64, 0, 0, escaped);
    return (DEEP | (deepStart.length - 1)) >>> 0;
  };
  const v6 = new Ranges();
  // The IPv4 walk ran first, so the 2002::/16 alias of its subtree is met as visited: ESCAPE.
  if (db.metadata.ip_version === 6) walk(v6, 0, 0, 64, 0, 0, deepSegment);
  deepStart.push(deep.value.length);
  return {
    v4Start: v4.hi.done(),
    v4Value: v4.value.done(),
    v6Hi: v6.hi.done(),
    v6Lo: v6.lo.done(),
    v6Value: v6.value.done(),
    deepStart: deepStart.done(),
    deepHi: deep.hi.done(),
    deepLo: deep.lo.done(),
    deepValue: deep.value.done(),
    pointers: pointers.done(),
  };
}

/** The value of (w2, w3) among one deep segment's ranges (given as separate hi/lo arrays). */
export function searchDeep(
  hi: Uint32Array,
  lo: Uint32Array,
  values: Uint32Array,
  w2: number,
  w3: number,
): number {
  let a = 0;
  let b = values.length - 1;
  while (a < b) {
    const mid = (a + b + 1) >>> 1;
    const h = hi[mid] as number;
    if (h < w2 || (h === w2 && (lo[mid] as number) <= w3)) a = mid;
    else b = mid - 1;
  }
  return values[a] as number;
}
