/**
 * The IP-intelligence tables: every range source (and the embedded Tor exit snapshot)
 * flattened into one range table, and the AS lists by number. Immutable.
 * @module
 */
import type { IntelData, IntelSource, IntelSourceMeta } from './intel-pack.js';
import {
  buildRangeTable,
  type RangeTable,
  rangesFromTokens,
  type SourceRanges,
} from './range-table.js';

/** Id suffix of the blocks derived from a source (`…/egress#blocks`). */
export const BLOCK_SUFFIX = '#blocks';
/**
 * Blocks: a /16 (IPv4) or /32 (IPv6) holding at least this many ranges of one relay or
 * provider range source: the span from its first to its last range counts for that source,
 * one step below the ranges themselves (providers allocate inside a few large blocks, so a
 * range missing from the list in use is still recognised). Exact-address lists (VPN exits)
 * use the /24 (IPv4) or /32 (IPv6) around at least `ADDRESS_BLOCK_MIN` listed addresses.
 */
export const BLOCK_MIN_RANGES = 2;
export const ADDRESS_BLOCK_MIN = 3;
/** Tier offset of derived blocks: below their source, above the next tier. */
const BLOCK_TIER_STEP = 0.5;

export interface AsListing {
  source: IntelSourceMeta;
  name: string;
}

export interface IpIntel {
  readonly data: IntelData;
  readonly table: RangeTable;
  /** Source of each table input (combination members index into it). */
  readonly tableSources: readonly IntelSourceMeta[];
  /** AS number → the lists naming it. */
  readonly asLists: ReadonlyMap<number, readonly AsListing[]>;
}

/** The intelligence of `data`: the sources' ranges, their dense blocks and Tor addresses. */
export function createIpIntel(data: IntelData): IpIntel {
  const tableSources: IntelSourceMeta[] = [];
  const inputs: SourceRanges[] = [];
  const asLists = new Map<number, AsListing[]>();
  for (const source of data.sources) {
    const meta = metaOf(source);
    const ranges = source.ranges;
    if (ranges) {
      tableSources.push(meta);
      inputs.push(ranges);
      if (meta.tier <= 5 && meta.signal !== 'tor') {
        tableSources.push({
          ...meta,
          id: `${meta.id}${BLOCK_SUFFIX}`,
          tier: meta.tier + BLOCK_TIER_STEP,
        });
        inputs.push(
          meta.kind === 'address-list'
            ? denseBlocks(ranges, 24, 32, ADDRESS_BLOCK_MIN)
            : denseBlocks(ranges, 16, 32, BLOCK_MIN_RANGES),
        );
      }
    }
    if (source.asns) {
      for (const [asn, name] of source.asns) {
        const list = asLists.get(asn) ?? [];
        if (list.length === 0) asLists.set(asn, list);
        list.push({ source: meta, name });
      }
    }
    const addresses = source.addresses;
    if (addresses && source.signal === 'tor') {
      // In the table, not a set of strings: an address in no range costs no string hashing.
      tableSources.push(meta);
      inputs.push(rangesFromTokens(addresses));
    }
  }
  const table = buildRangeTable(inputs);
  return {
    data,
    table,
    tableSources,
    asLists,
  };
}

/**
 * The intelligence of one bundled source replaced by a feed's copy (its ranges, dataset and
 * version): the source and its derived blocks, as the bundled table has them.
 */
export function feedIntel(
  source: IntelSourceMeta,
  patch: Pick<IntelSource, 'ranges' | 'dataset' | 'version'>,
): IpIntel {
  return createIpIntel({ built: '', sources: [{ ...source, ...patch }] });
}

/**
 * The arrays of `intel`'s range table as files store them (`intel.*`: the IP data file's
 * bundled table, a feed table), read back by `ip/data/reader.ts`.
 */
export function intelTableArrays(intel: IpIntel): Record<string, Uint32Array | Uint16Array> {
  const t = intel.table;
  let at = 0;
  return {
    'intel.v4Index': t.v4Index,
    'intel.v4Slots': t.v4Slots,
    'intel.v6Starts': t.v6Starts,
    'intel.v6Codes': t.v6Codes,
    'intel.v6Bucket': t.v6Bucket,
    'intel.comboEnds': Uint32Array.from(t.combos, (combo) => (at += combo.length)),
    'intel.comboSources': Uint32Array.from(t.combos.flat()),
  };
}

/** A copy of `data` with source `id` changed (a feed's new ranges and version). */
export function withSource(data: IntelData, id: string, patch: Partial<IntelSource>): IntelData {
  if (!data.sources.some((s) => s.id === id)) throw new Error(`no IP-intel source ${id}`);
  return {
    built: data.built,
    sources: data.sources.map((s) => (s.id === id ? { ...s, ...patch } : s)),
  };
}

/** The facts of a source without its entries. */
export function metaOf(s: IntelSource): IntelSourceMeta {
  return {
    id: s.id,
    dataset: s.dataset,
    kind: s.kind,
    signal: s.signal,
    provider: s.provider,
    tier: s.tier,
    version: s.version,
    licence: s.licence,
  };
}

/**
 * The span of the ranges inside each block of the top `bits4` (IPv4) or `bits6` (IPv6, at
 * most 32) bits that holds at least `min` of them (see `BLOCK_MIN_RANGES`).
 */
export function denseBlocks(
  r: SourceRanges,
  bits4: number,
  bits6: number,
  min: number,
): SourceRanges {
  const shift4 = 32 - bits4;
  const mask6 = bits6 >= 32 ? 0xffffffff : (0xffffffff << (32 - bits6)) >>> 0;
  const v4 = new Map<number, { n: number; lo: number; hi: number }>();
  for (let i = 0; i < r.v4.length; i += 2) {
    const s = r.v4[i] as number;
    const e = r.v4[i + 1] as number;
    const key = Math.floor(s / 2 ** shift4);
    if (Math.floor(e / 2 ** shift4) !== key) continue; // as wide as the block: its own range
    const b = v4.get(key);
    if (!b) v4.set(key, { n: 1, lo: s, hi: e });
    else {
      b.n++;
      b.lo = Math.min(b.lo, s);
      b.hi = Math.max(b.hi, e);
    }
  }
  // IPv6 ranges are /64 pairs [hi, lo]; blocks group on the masked high word.
  const v6 = new Map<number, { n: number; hiS: number; loS: number; hiE: number; loE: number }>();
  const before = (h1: number, l1: number, h2: number, l2: number) =>
    h1 < h2 || (h1 === h2 && l1 < l2);
  for (let i = 0; i < r.v6.length; i += 4) {
    const [hiS = 0, loS = 0, hiE = 0, loE = 0] = r.v6.subarray(i, i + 4);
    const key = (hiS & mask6) >>> 0;
    if ((hiE & mask6) >>> 0 !== key || (bits6 >= 32 && hiE !== hiS)) continue;
    const b = v6.get(key);
    if (!b) v6.set(key, { n: 1, hiS, loS, hiE, loE });
    else {
      b.n++;
      if (before(hiS, loS, b.hiS, b.loS)) [b.hiS, b.loS] = [hiS, loS];
      if (before(b.hiE, b.loE, hiE, loE)) [b.hiE, b.loE] = [hiE, loE];
    }
  }
  const out4: number[] = [];
  for (const b of v4.values()) if (b.n >= min) out4.push(b.lo, b.hi);
  const out6: number[] = [];
  for (const b of v6.values()) if (b.n >= min) out6.push(b.hiS, b.loS, b.hiE, b.loE);
  return { v4: Uint32Array.from(out4), v6: Uint32Array.from(out6) };
}
