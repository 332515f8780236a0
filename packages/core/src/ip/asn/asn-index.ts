/**
 * IP → AS index: sorted address ranges in typed arrays, found by binary search. Each range
 * points to an "entry" (AS number + names) shared by all the ranges an AS announces.
 * @module
 */

export interface AsnIndexData {
  /** IPv4 ranges: inclusive first and last address, and the entry they belong to. */
  v4Start: Uint32Array;
  v4End: Uint32Array;
  v4Entry: Uint32Array;
  /** IPv6 ranges: four big-endian words per address. */
  v6Start: Uint32Array;
  v6End: Uint32Array;
  v6Entry: Uint32Array;
  entryAsn: Uint32Array;
  /** The AS holder's name per entry. */
  entryName: readonly string[];
  /** Organisation and ISP per entry, when the data has them apart from the AS name. */
  entryOrg?: readonly string[];
  entryIsp?: readonly string[];
  /** Where the data came from, e.g. `@ip-location-db/asn 2.3.2026061719`. */
  source: string;
}

/** Most IPv6 bucket bits: 2^20 + 1 bucket starts are 4 MiB. */
const V6_MAX_BUCKET_BITS = 20;

export class AsnIndex {
  readonly data: AsnIndexData;
  readonly v4Rows: number;
  readonly v6Rows: number;
  /** Per /16 (and 65,536 at the end): the number of rows starting before it. */
  private readonly v4Bucket: Uint32Array;
  /** The same over the top `32 - v6Shift` bits of the first IPv6 word. */
  private readonly v6Bucket: Uint32Array;
  private readonly v6Shift: number;
  private readonly v4Start: Uint32Array;
  private readonly v4End: Uint32Array;

  constructor(data: AsnIndexData) {
    this.data = data;
    this.v4Rows = data.v4Entry.length;
    this.v6Rows = data.v6Entry.length;
    this.v4Start = data.v4Start;
    this.v4End = data.v4End;
    this.v4Bucket = rowsBefore(data.v4Start, 1, 16);
    const bits = Math.max(1, Math.min(V6_MAX_BUCKET_BITS, Math.ceil(Math.log2(this.v6Rows + 1))));
    this.v6Shift = 32 - bits;
    this.v6Bucket = rowsBefore(data.v6Start, 4, bits);
  }

  get entries(): number {
    return this.data.entryAsn.length;
  }

  /** Row of the range holding an IPv4 address, or -1. */
  findV4(address: number): number {
    const start = this.v4Start;
    const b = address >>> 16;
    // The last row starting at or before `address` lies between the last row starting
    // before this /16 and the last one starting before the next.
    let lo = (this.v4Bucket[b] as number) - 1;
    let hi = (this.v4Bucket[b + 1] as number) - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((start[mid] as number) <= address) lo = mid;
      else hi = mid - 1;
    }
    return lo >= 0 && (this.v4End[lo] as number) >= address ? lo : -1;
  }

  /** Row of the range holding an IPv6 address, or -1. */
  findV6(w0: number, w1: number, w2: number, w3: number): number {
    const start = this.data.v6Start;
    const b = w0 >>> this.v6Shift;
    let lo = (this.v6Bucket[b] as number) - 1;
    let hi = (this.v6Bucket[b + 1] as number) - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (compareWords(start, mid * 4, w0, w1, w2, w3) <= 0) lo = mid;
      else hi = mid - 1;
    }
    return lo >= 0 && compareWords(this.data.v6End, lo * 4, w0, w1, w2, w3) >= 0 ? lo : -1;
  }

  entryOfV4Row(row: number): number {
    return this.data.v4Entry[row] as number;
  }

  entryOfV6Row(row: number): number {
    return this.data.v6Entry[row] as number;
  }

  asnOf(entry: number): number {
    return this.data.entryAsn[entry] as number;
  }

  nameOf(entry: number): string {
    return this.data.entryName[entry] ?? '';
  }

  orgOf(entry: number): string {
    return this.data.entryOrg?.[entry] || this.nameOf(entry);
  }

  ispOf(entry: number): string {
    return this.data.entryIsp?.[entry] || this.nameOf(entry);
  }
}

/**
 * For sorted range starts (`stride` words per row, first word big-endian), the number of rows
 * whose first word is below each of the 2^bits buckets of the first word, plus the row count.
 */
function rowsBefore(starts: Uint32Array, stride: number, bits: number): Uint32Array {
  const buckets = 2 ** bits;
  const shift = 32 - bits;
  const rows = starts.length / stride;
  const before = new Uint32Array(buckets + 1);
  let row = 0;
  for (let b = 0; b < buckets; b++) {
    before[b] = row;
    // Rows of this bucket: first word below the next bucket's start.
    while (row < rows && (starts[row * stride] as number) >>> shift <= b) row++;
  }
  before[buckets] = rows;
  return before;
}

/** Compares the address at `words[at..at+3]` with (w0..w3): negative, 0 or positive. */
export function compareWords(
  words: Uint32Array,
  at: number,
  w0: number,
  w1: number,
  w2: number,
  w3: number,
): number {
  return (
    (words[at] as number) - w0 ||
    (words[at + 1] as number) - w1 ||
    (words[at + 2] as number) - w2 ||
    (words[at + 3] as number) - w3
  );
}

/** Collects ranges and entries, then freezes them into an `AsnIndex`. */
export class AsnIndexBuilder {
  private v4: number[] = [];
  private v6: number[] = [];
  private readonly asns: number[] = [];
  private readonly names: string[] = [];
  private readonly orgs: string[] = [];
  private readonly isps: string[] = [];
  private readonly entryByKey = new Map<string, number>();
  private hasOrgIsp = false;

  /** The entry number of an (AS, names) combination, created on first use. */
  entry(asn: number, name: string, org = '', isp = ''): number {
    const key = org || isp ? `${asn}\u0000${name}\u0000${org}\u0000${isp}` : `${asn}\u0000${name}`;
    let entry = this.entryByKey.get(key);
    if (entry === undefined) {
      entry = this.asns.length;
      this.entryByKey.set(key, entry);
      this.asns.push(asn);
      this.names.push(name);
      this.orgs.push(org);
      this.isps.push(isp);
      if (org || isp) this.hasOrgIsp = true;
    }
    return entry;
  }

  addV4(first: number, last: number, entry: number): void {
    this.v4.push(first, last, entry);
  }

  addV6(first: readonly number[], last: readonly number[], entry: number): void {
    this.v6.push(...first, ...last, entry);
  }

  build(source: string): AsnIndex {
    const { v4, v6 } = this;
    // Array.prototype.sort is stable (ECMA-262), so rows with equal starts keep their order.
    const v4Order = rows(v4.length / 3).sort(
      (a, b) => (v4[a * 3] as number) - (v4[b * 3] as number),
    );
    const v6Order = rows(v6.length / 9).sort((a, b) => {
      for (let k = 0; k < 4; k++) {
        const d = (v6[a * 9 + k] as number) - (v6[b * 9 + k] as number);
        if (d !== 0) return d;
      }
      return 0;
    });
    /** Column `at` (`width` words) of the rows of `stride` words, in `order`. */
    const column = (list: number[], order: number[], stride: number, at: number, width = 1) => {
      const out = new Uint32Array(order.length * width);
      order.forEach((row, i) => {
        for (let k = 0; k < width; k++) out[i * width + k] = list[row * stride + at + k] as number;
      });
      return out;
    };
    this.v4 = [];
    this.v6 = [];
    return new AsnIndex({
      v4Start: column(v4, v4Order, 3, 0),
      v4End: column(v4, v4Order, 3, 1),
      v4Entry: column(v4, v4Order, 3, 2),
      v6Start: column(v6, v6Order, 9, 0, 4),
      v6End: column(v6, v6Order, 9, 4, 4),
      v6Entry: column(v6, v6Order, 9, 8),
      entryAsn: Uint32Array.from(this.asns),
      entryName: this.names,
      ...(this.hasOrgIsp ? { entryOrg: this.orgs, entryIsp: this.isps } : {}),
      source,
    });
  }
}

const rows = (count: number): number[] => Array.from({ length: count }, (_, i) => i);
