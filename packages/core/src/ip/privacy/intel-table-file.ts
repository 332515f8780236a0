/**
 * The range table of the bundled IP-intel pack, made by the package build (`prebuildIpTables`)
 * so that a start reads ~5 MB instead of building it (~0.25 s of every start and every one-shot
 * CLI lookup: the dense blocks and the flattening of 95,000 ranges; BENCHMARKS.md). Only the
 * package's prebuilt folder holds one — never the run-time cache directory — so a table is
 * always what this version of `buildRangeTable` makes: the build writes it afresh each time.
 *
 * Keyed by a fingerprint of everything the table is built from (`intelFingerprint`: each
 * source's id, kind, tier, signal, ranges and addresses), so other data (a feed's update, a
 * caller's own `intel`) never reads it. Read back with every index a lookup follows checked
 * against the arrays' sizes (`checkRangeTable`).
 * @module
 */
import { createHash } from 'node:crypto';
import { type CacheKind, cacheFilePath, readCacheFile, writeCacheFile } from '../cache-file.js';
import type { IntelData } from './intel-pack.js';
import type { RangeTable } from './range-table.js';

export const INTEL_TABLE: CacheKind = { name: 'intel-table', format: 1 };
/** Bucket flags of the table (range-table.ts). */
const SINGLE = 0x80000000;

/** A digest of what `data`'s range table is built from. */
export function intelFingerprint(data: IntelData): string {
  const hash = createHash('sha256');
  for (const s of data.sources) {
    hash.update(JSON.stringify([s.id, s.kind, s.tier, s.signal, s.dataset, s.version]));
    if (s.ranges) {
      hash.update(`v4:${s.ranges.v4.length}`).update(s.ranges.v4);
      hash.update(`v6:${s.ranges.v6.length}`).update(s.ranges.v6);
    }
    if (s.addresses) hash.update(`addresses:${s.addresses.join('\n')}`);
  }
  return hash.digest('hex').slice(0, 32);
}

export function intelTableFile(dir: string, key: string): string {
  return cacheFilePath(dir, INTEL_TABLE, key);
}

export function writeIntelTable(
  file: string,
  key: string,
  table: RangeTable,
): Promise<Error | undefined> {
  let at = 0;
  const comboEnds = Uint32Array.from(table.combos, (combo) => (at += combo.length));
  return writeCacheFile(file, INTEL_TABLE, key, {
    meta: { v4Segments: table.v4Segments, v6Segments: table.v6Segments },
    arrays: {
      v4Index: table.v4Index,
      v4Slots: table.v4Slots,
      v6Starts: table.v6Starts,
      v6Codes: table.v6Codes,
      v6Bucket: table.v6Bucket,
      comboEnds,
      comboSources: Uint32Array.from(table.combos.flat()),
    },
  });
}

/** The table of `key` in `file`, or undefined (absent, other data, damaged). Never throws. */
export function readIntelTable(file: string, key: string): Promise<RangeTable | undefined> {
  return readCacheFile(file, INTEL_TABLE, key, (f) => {
    const ends = f.u32('comboEnds');
    const sources = f.u32('comboSources');
    const combos: number[][] = [];
    let start = 0;
    for (const end of ends) {
      if (end < start || end > sources.length) throw new RangeError('combinations');
      combos.push(Array.from(sources.subarray(start, end)));
      start = end;
    }
    const table: RangeTable = {
      v4Index: f.u32('v4Index'),
      v4Slots: f.u32('v4Slots'),
      v4Segments: Number(f.meta['v4Segments']),
      v6Starts: f.u32('v6Starts'),
      v6Codes: f.u16('v6Codes'),
      v6Bucket: f.u32('v6Bucket'),
      v6Segments: Number(f.meta['v6Segments']),
      combos,
    };
    checkRangeTable(table);
    return table;
  });
}

/**
 * Throws unless every read `comboOfV4`/`comboOfV6` can make stays inside the arrays and every
 * combination they can return exists.
 */
export function checkRangeTable(t: RangeTable): void {
  const fail = (what: string): never => {
    throw new RangeError(`IP-intel range table: ${what}`);
  };
  const combos = t.combos.length;
  if (t.v4Index.length !== 65_536) fail('IPv4 index size');
  for (const entry of t.v4Index) {
    if (entry >= SINGLE) {
      if ((entry & 0xffff) >= combos) fail('IPv4 combination');
      continue;
    }
    const count = t.v4Slots[entry] ?? 0;
    if (count < 1 || entry + count >= t.v4Slots.length) fail('IPv4 segments');
    // The /16's first segment starts at its first address: the search always lands on one.
    if ((t.v4Slots[entry + 1] as number) >>> 16 !== 0) fail('IPv4 first segment');
    for (let k = entry + 1; k <= entry + count; k++) {
      if (((t.v4Slots[k] as number) & 0xffff) >= combos) fail('IPv4 combination');
    }
  }
  const segments = t.v6Codes.length;
  if (t.v6Starts.length !== segments * 2 || segments !== t.v6Segments || segments < 1) {
    fail('IPv6 sizes');
  }
  for (const code of t.v6Codes) if (code >= combos) fail('IPv6 combination');
  const buckets = t.v6Bucket.length;
  if (buckets !== 2 ** 20 + 1) fail('IPv6 bucket count');
  for (let b = 0; b < buckets; b++) {
    const value = t.v6Bucket[b] as number;
    const first = value >= SINGLE ? value - SINGLE : value;
    if (first >= segments) fail('IPv6 bucket');
    // A search runs from `first` to the next bucket's first segment.
    if (b + 1 < buckets) {
      const next = t.v6Bucket[b + 1] as number;
      if ((next >= SINGLE ? next - SINGLE : next) < first) fail('IPv6 bucket order');
    }
  }
}
