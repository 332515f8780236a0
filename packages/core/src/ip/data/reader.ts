/**
 * The one IP lookup: an address's location, network and privacy from an IP data file
 * (`ip-data-file.ts`), for a server and a one-shot command alike. The file is either kept, each
 * array read whole on first use and held in a Buffer outside the JS heap (a server, a library),
 * or read by position, a few hundred bytes per lookup and nothing kept (`netdiag lookup`): the
 * same searches over the same arrays, only where the bytes come from differs (`Column`).
 * Run-time feeds (a Tor exit list, fresh copies of IP-intel sources) are applied per address:
 * a feed's source is taken out of the bundled range table's answer and its own table asked.
 * One piece: the searches, the shaping and the caches read the same columns.
 * @module
 */
import { InvalidIpError } from '../../errors.js';
import { embeddedV4, specialRangeOf } from '../../net/ranges.js';
import { type AddressParts, createAddressParts, parseAddressInto } from '../address.js';
import { AsnIndex, compareWords } from '../asn/asn-index.js';
import type { PositionedCacheFile } from '../cache-file.js';
import type { IpDatasets } from '../datasets.js';
import { EMPTY_LOCATION, EMPTY_NETWORK, EMPTY_PRIVACY, specialAddressInfo } from '../empty.js';
import {
  bitsAt,
  geoOf,
  ROOT_STRIDE,
  searchV4Slots,
  searchV6Leaf,
  V4_ESCAPE,
  V6_WORDS,
} from '../geo/geo-asn-table.js';
import { LocationTable, StringList, type TableStrings } from '../geo/location-table.js';
import { DEEP, ESCAPE, searchDeep } from '../mmdb/range-table.js';
import {
  asCandidates,
  type Candidate,
  decide,
  rangeCandidates,
  torCandidate,
} from '../privacy/classify.js';
import { openFeedTable } from '../privacy/feed-table.js';
import { type AsListing, BLOCK_SUFFIX, feedIntel, intelTableArrays } from '../privacy/intel.js';
import type { IntelSourceMeta } from '../privacy/intel-pack.js';
import {
  SINGLE,
  searchV4Segments,
  searchV6Segments,
  V6_BUCKET_BITS,
} from '../privacy/range-table.js';
import { parseSignalLists } from '../privacy/signal-lists.js';
import type { TorExitList } from '../tor-exit-list.js';
import type { IpInfo, IpLocation, IpNetwork, IpPlace, IpPrivacy } from '../types.js';
import { contentsFile, type IpDataMeta, type Listings } from './ip-data-file.js';

type Typed = Uint32Array | Uint16Array | Uint8Array;

/**
 * One array of the file. `read(from, to)` returns elements `from`..`to - 1` at indexes
 * `from - base`..: the whole array (base 0) when kept, else a window read for this call.
 */
class Column<T extends Typed> {
  base = 0;
  private whole: T | undefined;
  constructor(
    private readonly file: PositionedCacheFile,
    private readonly name: string,
    private readonly type: 'u32' | 'u16' | 'u8',
    private readonly keep: boolean,
  ) {}
  read(from: number, to: number): T {
    if (this.keep) {
      this.whole ??= this.file[this.type](this.name) as T;
      return this.whole;
    }
    this.base = from;
    return this.file[this.type](this.name, from, to) as T;
  }
  at(i: number): number {
    const whole = this.whole;
    if (whole !== undefined) return whole[i] as number;
    return this.read(i, i + 1)[i - this.base] as number;
  }
}

/** A range table: the combination covering an address, and the sources of a combination. */
interface Ranges {
  /** Combinations in the table (0: no source). */
  count: number;
  comboOf(parts: AddressParts): number;
  members(combo: number): readonly number[];
}

/** A run-time copy of one IP-intel source: its own table, and where it sits among the bundled. */
interface FeedTable {
  ranges: Ranges;
  /** The feed table's sources (the source, its blocks). */
  sources: readonly IntelSourceMeta[];
  /** Bundled table-source index of each of the feed table's sources. */
  bundled: number[];
  /** The file the table is read from, if any (closed with the reader). */
  file?: PositionedCacheFile;
}

/** Everything a lookup's privacy depends on besides the AS, replaced whole when a feed changes. */
interface PrivacyState {
  tor: TorExitList | undefined;
  feeds: Map<string, FeedTable>;
  /** Bundled table-source indexes the feeds replace. */
  masked: Set<number>;
  /** The table's sources, with the feeds' dataset and version. */
  sources: IntelSourceMeta[];
  /** Privacy by range key, then AS entry + 1 (emptied when it grows past `MIXED_MAX`). */
  mixed: Map<number, Map<number, Readonly<IpPrivacy>>>;
  size: number;
}
const MIXED_MAX = 262_144;

/** The lookup over one IP data file: `IpDatasets` but for what `loadIpDatasets` adds. */
export interface IpReader extends Omit<IpDatasets, 'asn' | 'info'> {
  readonly meta: Readonly<IpDataMeta>;
  /** The whole AS index (read on first use: AS search, prefixes). */
  asnIndex(): AsnIndex;
}

/** The lookup over `file`; `keep` as `openIpData`'s (each array held once read). */
export function createIpReader(file: PositionedCacheFile, keep: boolean): IpReader {
  const meta = file.meta as unknown as IpDataMeta;
  const u32 = (name: string) => new Column<Uint32Array>(file, name, 'u32', keep);
  const parts = createAddressParts();
  const lists = parseSignalLists(meta.lists);
  const sourceOf = (i: number): IntelSourceMeta => {
    const source = meta.sources[i];
    if (source === undefined) throw new RangeError(`IP data: no source ${i}`);
    return source;
  };
  const bundledSources = meta.tableSources.map(sourceOf);
  const listingsOf = (list: Listings[number][1]): AsListing[] =>
    list.map(([i, name]) => ({ source: sourceOf(i), name }));
  const learnt = new Map(meta.learnt.map(([n, list]) => [n, listingsOf(list)]));

  // --- Location and AS entry: one search (geo/geo-asn-table.ts) ---
  const v4Bucket = u32('v4.bucket');
  const v4Slots = u32('v4.slots');
  const v6Slots = u32('v6.slots');
  const v6NodeBase = u32('v6.nodeBase');
  const v6NodeStride = new Column<Uint8Array>(file, 'v6.nodeStride', 'u8', keep);
  const v6Ranges = u32('v6.ranges');
  const deep = {
    start: u32('v6.deepStart'),
    hi: u32('v6.deepHi'),
    lo: u32('v6.deepLo'),
    codes: u32('v6.deepCodes'),
  };
  /** Record id + 1 (0: none) and AS entry + 1 (0: none) of the last search. */
  let geo = 0;
  let entry = 0;
  const searchV4 = (address: number): void => {
    const b = address >>> 16;
    const first = v4Bucket.at(b);
    const next = v4Bucket.at(b + 1);
    const slots = v4Slots.read(first * 2, next * 2);
    const base = v4Slots.base / 2;
    const i = searchV4Slots(slots, first - base, next - base - 1, address);
    geo = geoOf(slots, i * 2);
    entry = (slots[i * 2 + 1] as number) & 0xffffff;
    // Escapes stand for codes past 24 bits or a tree the build could not flatten (a damaged
    // database): no data, as the build reports them.
    if (geo === V4_ESCAPE) geo = 0;
    if (entry === V4_ESCAPE) entry = 0;
  };
  const searchV6 = (w0: number, w1: number, w2: number, w3: number): void => {
    // The radix walk: one slot pair (and the next slot's range) per level.
    let k = w0 >>> (32 - ROOT_STRIDE);
    let depth = ROOT_STRIDE;
    let slots = v6Slots.read(k * 2, k * 2 + 4);
    let at = k * 2 - v6Slots.base;
    while (slots[at + 1] !== 0) {
      const child = slots[at + 1] as number;
      const stride = v6NodeStride.at(child);
      k = v6NodeBase.at(child) + bitsAt(w0, w1, depth, stride);
      depth += stride;
      slots = v6Slots.read(k * 2, k * 2 + 4);
      at = k * 2 - v6Slots.base;
    }
    const first = slots[at] as number;
    const last = slots[at + 2] as number;
    const ranges = v6Ranges.read(first * V6_WORDS, (last + 1) * V6_WORDS);
    const base = v6Ranges.base / V6_WORDS;
    const i = searchV6Leaf(ranges, first - base, last - base, w0, w1);
    geo = ranges[i * V6_WORDS + 2] as number;
    if (geo !== ESCAPE && geo >= DEEP) {
      const segment = geo - DEEP;
      const a = deep.start.at(segment);
      const b = deep.start.at(segment + 1);
      const window = (c: Column<Uint32Array>) => c.read(a, b).subarray(a - c.base, b - c.base);
      geo = searchDeep(window(deep.hi), window(deep.lo), window(deep.codes), w2, w3);
    }
    if (geo === ESCAPE) geo = 0; // see searchV4
    entry = asEntryV6(w0, w1, w2, w3);
  };
  const v6Start = u32('as.v6Start');
  const v6End = u32('as.v6End');
  const v6Entry = u32('as.v6Entry');
  /** AS entry + 1 (0: none) of an IPv6 address: the last row starting at or before it, if it reaches it. */
  const asEntryV6 = (w0: number, w1: number, w2: number, w3: number): number => {
    const compare = (c: Column<Uint32Array>, row: number) =>
      compareWords(c.read(row * 4, row * 4 + 4), row * 4 - c.base, w0, w1, w2, w3);
    let lo = -1;
    let hi = file.length('as.v6Entry') - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (compare(v6Start, mid) <= 0) lo = mid;
      else hi = mid - 1;
    }
    return lo < 0 || compare(v6End, lo) < 0 ? 0 : v6Entry.at(lo) + 1;
  };

  // --- Locations, shaped by the build (geo/location-table.ts) ---
  const strings: TableStrings = {
    size: file.length('loc.strings.ends'),
    get(i) {
      const ends = file.u32('loc.strings.ends', Math.max(0, i - 1), i + 1);
      const [start, end] =
        i === 0 ? [0, ends[0] as number] : [ends[0] as number, ends[1] as number];
      return Buffer.from(file.u8('loc.strings', start, end).buffer).toString('utf8');
    },
  };
  const countries = file.u32('loc.countries');
  const zones = file.u32('loc.zones');
  /** The table of records `from`.. (to `to - 1`, or all). */
  const tableOf = (list: TableStrings, from: number, to?: number) => {
    const coords = file.u32('loc.coords', from * 2, to === undefined ? to : to * 2);
    return new LocationTable(list, countries, zones, {
      words: file.u32('loc.words', from * 5, to === undefined ? to : to * 5),
      coords: new Int32Array(coords.buffer, coords.byteOffset, coords.length),
    });
  };
  let table: LocationTable | undefined;
  let shaped: (IpLocation | undefined)[] = [];
  const locationOf = (id: number): IpLocation => {
    if (!keep) return tableOf(strings, id, id + 1).location(0);
    if (table === undefined) {
      const bytes = file.u8('loc.strings');
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      table = tableOf(new StringList(buffer, file.u32('loc.strings.ends')), 0);
      shaped = new Array<IpLocation | undefined>(table.count).fill(undefined);
    }
    shaped[id] ??= table.location(id);
    return shaped[id];
  };

  // --- Networks and AS-level privacy, per AS entry ---
  let index: AsnIndex | undefined;
  const asnIndex = (): AsnIndex => {
    index ??= new AsnIndex({
      ...rowsFromGaps(file.u32('as.v4Gap'), file.u32('as.v4Size')),
      v4Entry: file.u32('as.v4Entry'),
      v6Start: file.u32('as.v6Start'),
      v6End: file.u32('as.v6End'),
      v6Entry: file.u32('as.v6Entry'),
      entryAsn: file.u32('as.asn'),
      entryName: file.lines('as.name'),
      ...(file.has('as.org')
        ? { entryOrg: file.lines('as.org'), entryIsp: file.lines('as.isp') }
        : {}),
      source: meta.asn,
    });
    return index;
  };
  const entryAsn = u32('as.asn');
  const quiet = new Column<Uint8Array>(file, 'as.quiet', 'u8', keep);
  const hasOrg = file.has('as.org');
  // Per AS entry (~91,000): arrays, looked up faster than maps on every lookup.
  const entries = file.length('as.asn');
  const networks = new Array<Readonly<IpNetwork> | undefined>(entries);
  const networkOf = (e: number): Readonly<IpNetwork> => {
    if (networks[e] === undefined) {
      const name = file.line('as.name', e);
      networks[e] = Object.freeze({
        asn: entryAsn.at(e),
        as_name: name,
        org: (hasOrg ? file.line('as.org', e) : '') || name,
        isp: (hasOrg ? file.line('as.isp', e) : '') || name,
      });
    }
    return networks[e];
  };
  const asListings = new Map<number, ReadonlyMap<number, readonly AsListing[]>>();
  /** The bundled lists naming AS `n` (`IpIntel.asLists` for that AS). */
  const asListsOf = (n: number): ReadonlyMap<number, readonly AsListing[]> => {
    let found = asListings.get(n);
    if (found !== undefined) return found;
    found = new Map();
    // Sorted, distinct AS numbers (`privacyPart` in build-ip-data.ts).
    const i = file.has('aslists.asn') ? file.u32('aslists.asn').indexOf(n) : -1;
    if (i >= 0) {
      const start = i === 0 ? 0 : (file.u32('aslists.ends', i - 1, i)[0] as number);
      const end = file.u32('aslists.ends', i, i + 1)[0] as number;
      const bytes = file.u8('aslists.text', start, end);
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString();
      found = new Map([[n, listingsOf(JSON.parse(text) as Listings[number][1])]]);
    }
    asListings.set(n, found);
    return found;
  };
  const asEvidence = new Array<Candidate[] | undefined>(entries);
  const asCandidatesOf = (e: number): Candidate[] => {
    if (asEvidence[e] === undefined) {
      const n = entryAsn.at(e);
      asEvidence[e] =
        quiet.at(e) === 1 ? [] : asCandidates(n, networkOf(e).as_name, lists, asListsOf(n), learnt);
    }
    return asEvidence[e];
  };
  const asPrivacy = new Array<Readonly<IpPrivacy> | undefined>(entries);
  const privacyOf = (e: number): Readonly<IpPrivacy> =>
    (asPrivacy[e] ??= decide(asCandidatesOf(e)));

  // --- Range sources: the bundled table, the feeds' tables, the Tor list ---
  const bundledRanges: Ranges = file.has('intel.v4Index')
    ? fileRanges(file, keep)
    : { count: 1, comboOf: () => 0, members: () => [] };

  const stateOf = (tor: TorExitList | undefined, feeds: Map<string, FeedTable>): PrivacyState => {
    const masked = new Set<number>();
    const sources = [...bundledSources];
    for (const feed of feeds.values()) {
      feed.bundled.forEach((b, i) => {
        masked.add(b);
        sources[b] = feed.sources[i] as IntelSourceMeta;
      });
    }
    // A run-time Tor list replaces the bundled snapshot (a source of the range table).
    if (tor !== undefined && tor.size > 0) {
      bundledSources.forEach((s, i) => {
        if (s.id === 'tor-exit-list' || s.signal === 'tor') masked.add(i);
      });
    }
    return { tor, feeds, masked, sources, mixed: new Map(), size: 0 };
  };
  let state = stateOf(undefined, new Map());

  /** The privacy of an address some range source or the Tor list may name. */
  const addressPrivacy = (s: PrivacyState, e: number): Readonly<IpPrivacy> => {
    const combo = bundledRanges.comboOf(parts);
    let key = combo;
    const feedMembers: number[] = [];
    for (const feed of s.feeds.values()) {
      const c = feed.ranges.comboOf(parts);
      key = key * (feed.ranges.count + 1) + c;
      for (const i of feed.ranges.members(c)) feedMembers.push(feed.bundled[i] as number);
    }
    const tor = s.tor !== undefined && s.tor.size > 0 && s.tor.has(parts.text) ? 1 : 0;
    key = key * 2 + tor;
    if (key === 0) return e > 0 ? privacyOf(e - 1) : EMPTY_PRIVACY;
    let byEntry = s.mixed.get(key);
    let privacy = byEntry?.get(e);
    if (privacy !== undefined) return privacy;
    const all = combo === 0 ? [] : bundledRanges.members(combo).filter((i) => !s.masked.has(i));
    // In the table's order, as one table holding the feeds' ranges would list them.
    if (feedMembers.length > 0) {
      all.push(...feedMembers);
      all.sort((a, b) => a - b);
    }
    const candidates = rangeCandidates(all, s.sources);
    if (tor === 1) {
      candidates.push(
        torCandidate(
          'Tor exit list (NETDIAG_TOR_EXIT_LIST_URL)',
          s.tor?.fetched_at || 'cached copy',
        ),
      );
    }
    if (e > 0) candidates.push(...asCandidatesOf(e - 1));
    privacy = decide(candidates);
    if (s.size >= MIXED_MAX) {
      s.mixed.clear();
      s.size = 0;
      byEntry = undefined;
    }
    if (byEntry === undefined) {
      byEntry = new Map();
      s.mixed.set(key, byEntry);
    }
    byEntry.set(e, privacy);
    s.size++;
    return privacy;
  };

  /** Puts a feed's table in place of its bundled source (and the blocks derived from it). */
  const install = (
    id: string,
    sources: readonly IntelSourceMeta[],
    ranges: Ranges,
    table?: PositionedCacheFile,
  ): void => {
    const bundled = sources.map((t) => bundledSources.findIndex((s) => s.id === t.id));
    if (bundled.some((i) => i < 0)) throw new Error(`IP-intel source ${id}: no bundled blocks`);
    // Built completely before the one assignment below: lookups see old or new, never a mix.
    const feeds = new Map(state.feeds);
    feeds.get(id)?.file?.close();
    feeds.set(id, { ranges, sources, bundled, ...(table ? { file: table } : {}) });
    state = stateOf(state.tor, feeds);
  };

  /**
   * Parses `ip` and finds its ranges (`parts`, `entry`, `geo`); a special-purpose address's
   * whole record instead. Throws `InvalidIpError` for anything that is not an address.
   */
  const find = (ip: string): IpInfo | undefined => {
    if (typeof ip !== 'string' || !parseAddressInto(ip, parts)) throw new InvalidIpError();
    const special = specialRangeOf(parts);
    if (special !== undefined) return specialAddressInfo(parts.text, parts.version, special);
    // NAT64 and 6to4 addresses stand for an IPv4 host: located as that host.
    const embedded = parts.version === 4 ? -1 : embeddedV4(parts.w0, parts.w1, parts.w2, parts.w3);
    if (parts.version === 4) searchV4(parts.v4);
    else if (embedded >= 0) searchV4(embedded);
    else searchV6(parts.w0, parts.w1, parts.w2, parts.w3);
    return undefined;
  };
  /** The record of the address `find` found, without privacy. */
  const place = (): IpPlace => ({
    ip: parts.text,
    version: parts.version,
    bogon: false,
    bogon_reason: '',
    location: geo === 0 ? EMPTY_LOCATION : locationOf(geo - 1),
    network: entry === 0 ? EMPTY_NETWORK : networkOf(entry - 1),
  });

  return {
    meta,
    lists,
    networkOf,
    privacyOf,
    asnIndex,
    intelSources: bundledSources.filter((s) => !s.id.endsWith(BLOCK_SUFFIX)),
    get torExitList() {
      return state.tor;
    },
    setTorExitList(list) {
      state = stateOf(list, state.feeds);
    },
    setIntelSource(id, patch) {
      const source = bundledSources.find((s) => s.id === id);
      if (source === undefined) throw new Error(`no IP-intel source ${id}`);
      const intel = feedIntel(source, patch);
      const table = contentsFile({ arrays: intelTableArrays(intel) });
      install(id, intel.tableSources, fileRanges(table, true));
    },
    setIntelTable(id, path, key, label) {
      const table = openFeedTable(path, key, keep);
      const sources = table?.meta.tableSources as IntelSourceMeta[] | undefined;
      if (table === undefined || !Array.isArray(sources)) {
        table?.close();
        return false;
      }
      const labelled = sources.map((source) => ({ ...source, ...label }));
      install(id, labelled, fileRanges(table, keep), table);
      return true;
    },
    lookup(ip: string): IpInfo {
      const special = find(ip);
      if (special !== undefined) return special;
      // Written out, not `{ ...place(), privacy }`: one object per warm lookup, not two.
      return {
        ip: parts.text,
        version: parts.version,
        bogon: false,
        bogon_reason: '',
        location: geo === 0 ? EMPTY_LOCATION : locationOf(geo - 1),
        network: entry === 0 ? EMPTY_NETWORK : networkOf(entry - 1),
        privacy: addressPrivacy(state, entry),
      };
    },
    locate(ip: string): IpPlace {
      return find(ip) ?? place();
    },
    close: () => {
      for (const feed of state.feeds.values()) feed.file?.close();
      file.close();
    },
  };
}

/**
 * The range table of arrays `intel.*` of `file` (`intelTableArrays`): the IP data file's
 * bundled table, or a feed table. `keep` as the reader's.
 */
function fileRanges(file: PositionedCacheFile, keep: boolean): Ranges {
  const u32 = (name: string) => new Column<Uint32Array>(file, name, 'u32', keep);
  const v4Index = u32('intel.v4Index');
  const v4Slots = u32('intel.v4Slots');
  const v6Bucket = u32('intel.v6Bucket');
  const v6Starts = u32('intel.v6Starts');
  const v6Codes = new Column<Uint16Array>(file, 'intel.v6Codes', 'u16', keep);
  const comboEnds = u32('intel.comboEnds');
  const comboSources = u32('intel.comboSources');
  const combos: (number[] | undefined)[] = [];
  return {
    count: file.length('intel.comboEnds'),
    comboOf(parts) {
      if (parts.version === 4) {
        const v4 = parts.v4;
        const first = v4Index.at(v4 >>> 16);
        if (first >= SINGLE) return first & 0xffff;
        const count = v4Slots.at(first);
        const slots = v4Slots.read(first + 1, first + count + 1);
        const base = v4Slots.base;
        return searchV4Segments(slots, first + 1 - base, first + count - base, v4);
      }
      const b = parts.w0 >>> (32 - V6_BUCKET_BITS);
      const first = v6Bucket.at(b);
      if (first >= SINGLE) return v6Codes.at(first - SINGLE);
      const last = (v6Bucket.at(b + 1) & ~SINGLE) >>> 0;
      const starts = v6Starts.read(first * 2, (last + 1) * 2);
      const base = v6Starts.base / 2;
      const i = searchV6Segments(starts, first - base, last - base, parts.w0, parts.w1);
      return v6Codes.at(i + base);
    },
    members(combo) {
      if (combos[combo] === undefined) {
        const start = combo === 0 ? 0 : comboEnds.at(combo - 1);
        const end = comboEnds.at(combo);
        const sources = comboSources.read(start, end);
        const base = comboSources.base;
        combos[combo] = Array.from(sources.subarray(start - base, end - base));
      }
      return combos[combo];
    },
  };
}

/** The IPv4 AS rows' starts and ends from their gaps and sizes (`v4RowsAsGaps`, build-ip-data.ts). */
function rowsFromGaps(gap: Uint32Array, size: Uint32Array) {
  const v4Start = new Uint32Array(gap.length);
  const v4End = new Uint32Array(gap.length);
  let next = 0;
  for (let i = 0; i < gap.length; i++) {
    // Modulo 2^32, as the gap was stored: a row may overlap the one before it.
    const start = (next + (gap[i] as number)) >>> 0;
    v4Start[i] = start;
    v4End[i] = start + (size[i] as number);
    next = start + (size[i] as number) + 1;
  }
  return { v4Start, v4End };
}
