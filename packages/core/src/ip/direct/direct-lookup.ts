/**
 * Lookups answered from the package's prebuilt files by position, without loading them: what
 * a one-shot lookup (`netdiag lookup 8.8.8.8`, a script's single call) needs from the 110 MB
 * of lookup tables, the 23 MB of shaped locations and the 11 MB AS index is a few hundred
 * bytes of each, read with a handful of positioned reads, where loading the datasets reads
 * and checks them all (0.6 s and 260 MB for one answer; BENCHMARKS.md, "One-shot CLI lookup").
 *
 * The answer is the one `loadIpDatasets().lookup()` gives for the same data, by construction
 * (the same searches over the same arrays: `searchV4Slots`, `searchV6Leaf`, `searchDeep`,
 * `searchV4Segments`, `searchV6Segments`; the same `LocationTable` and classification) and by
 * test (`direct-lookup.test.ts` compares them on random and listed addresses). Where that
 * would need more than the prebuilt files — a range whose answer needs a tree walk or an AS
 * index search (escape codes), a user database, data other than what the files were built
 * from, a run-time feed's copy — `openDirectLookup` or `lookup` answers `undefined`, and the
 * caller loads the datasets instead.
 *
 * Reads are synchronous: for a command-line tool or a script's few lookups. A server keeps
 * the datasets loaded (`loadIpDatasets`), which answers in microseconds without I/O.
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidIpError } from '../../errors.js';
import { INTEL_FEEDS } from '../../feeds/intel-feeds.js';
import { TOR_EXIT_FEED } from '../../feeds/tor-exit-feed.js';
import { embeddedV4, specialRangeOf } from '../../net/ranges.js';
import { createAddressParts, parseAddressInto } from '../address.js';
import { ASN_CACHE } from '../asn/asn-disk-cache.js';
import { type CacheKind, openCacheFileSync, type PositionedCacheFile } from '../cache-file.js';
import { PREBUILT_TABLES } from '../data-packages.js';
import { EMPTY_LOCATION, EMPTY_NETWORK, EMPTY_PRIVACY, specialAddressInfo } from '../empty.js';
import {
  ASN_SEARCH,
  bitsAt,
  geoOf,
  ROOT_STRIDE,
  searchV4Slots,
  searchV6Leaf,
  V4_ESCAPE,
} from '../geo/geo-asn-table.js';
import { LOCATION_TABLE, LocationTable, type TableStrings } from '../geo/location-table.js';
import { TABLE_CACHE } from '../geo/table-cache.js';
import { DEEP, ESCAPE, searchDeep } from '../mmdb/range-table.js';
import { asCandidates, type Candidate, decide, rangeCandidates } from '../privacy/classify.js';
import type { AsListing } from '../privacy/intel.js';
import type { IntelSourceMeta } from '../privacy/intel-pack.js';
import { INTEL_TABLE } from '../privacy/intel-table-file.js';
import {
  SINGLE,
  searchV4Segments,
  searchV6Segments,
  V6_BUCKET_BITS,
} from '../privacy/range-table.js';
import { findDataDir, loadSignalLists, type SignalLists } from '../privacy/signal-lists.js';
import type { IpInfo, IpLocation, IpNetwork, IpPrivacy } from '../types.js';
import {
  AS_LISTS,
  type AsListings,
  DIRECT_MANIFEST,
  type DirectManifest,
  directManifestFile,
  packDigest,
  signalListsFingerprint,
} from './manifest.js';

export interface OpenDirectLookupOptions {
  /**
   * A MaxMind-format database configured instead of the embedded data (NETDIAG_GEOIP_DB,
   * NETDIAG_ASN_DB): then there are no prebuilt files for it, and the answer is `undefined`.
   */
  geoipDb?: string | undefined;
  asnDb?: string | undefined;
  /**
   * Where feeds keep their on-disk copies (NETDIAG_CACHE_DIR, default the OS temp directory):
   * a copy of the Tor exit list or an IP-intel feed changes answers, so with one there the
   * datasets are needed (`undefined`).
   */
  cacheDir?: string | undefined;
  /** @default the package's `data/ip-tables` */
  prebuiltDir?: string;
  /** @default the package's `data` folder (IP-intel pack, curated lists) */
  dataDir?: string;
  /** Names the data of the prebuilt files (`embeddedTablesKey()` of the installed packages). */
  key: string;
}

export interface DirectLookup {
  /**
   * The answer `loadIpDatasets().lookup(ip)` gives, or `undefined` when this address needs the
   * loaded datasets (see the module comment). Throws `InvalidIpError` for a bad address.
   */
  lookup(ip: string): IpInfo | undefined;
  close(): void;
}

/** The on-disk copies of the feeds that change lookups (the engine applies them on load). */
export const FEED_COPIES: readonly string[] = [
  TOR_EXIT_FEED.file,
  ...INTEL_FEEDS.map((f) => f.file),
];

/**
 * Opens the prebuilt files for direct lookups, or `undefined` when they cannot answer as the
 * loaded datasets would (a user database, a feed copy, files missing or made from other data).
 */
export function openDirectLookup(options: OpenDirectLookupOptions): DirectLookup | undefined {
  if (options.geoipDb || options.asnDb) return undefined;
  const cacheDir = options.cacheDir;
  if (cacheDir !== undefined && FEED_COPIES.some((file) => existsSync(join(cacheDir, file)))) {
    return undefined;
  }
  const dataDir = options.dataDir ?? findDataDir();
  const dir = options.prebuiltDir ?? join(dataDir, PREBUILT_TABLES);
  const manifestFile = openCacheFileSync(
    directManifestFile(dir, options.key),
    DIRECT_MANIFEST,
    options.key,
  );
  if (manifestFile === undefined) return undefined;
  const manifest = manifestFile.meta as unknown as DirectManifest;
  let lists: SignalLists | undefined;
  try {
    if (manifest.pack === packDigest(dataDir)) lists = loadSignalLists(dataDir);
  } catch {
    // A list file that does not parse: the datasets' load reports it.
  }
  if (lists === undefined || manifest.lists !== signalListsFingerprint(lists)) {
    manifestFile.close();
    return undefined;
  }

  const opened: PositionedCacheFile[] = [manifestFile];
  const open = (name: string, kind: CacheKind, key: string) => {
    const file = openCacheFileSync(join(dir, name), kind, key);
    if (file !== undefined) opened.push(file);
    return file;
  };
  const close = () => {
    for (const file of opened) file.close();
  };
  const { files, keys } = manifest;
  const tables = open(files.tables, TABLE_CACHE, options.key);
  const asn = open(files.asnIndex, ASN_CACHE, keys.asn);
  const locations = open(files.locations, LOCATION_TABLE, options.key);
  const intel = open(files.intelTable, INTEL_TABLE, keys.intel);
  if (
    tables === undefined ||
    asn === undefined ||
    locations === undefined ||
    intel === undefined ||
    locations.meta['ids'] !== manifest.locationIds
  ) {
    close();
    return undefined;
  }
  try {
    const reader = createReader(
      { tables, asn, locations, intel, manifest: manifestFile },
      manifest,
      lists,
    );
    return {
      lookup(ip) {
        try {
          return reader(ip);
        } catch (error) {
          // A read past an array (a damaged file): the datasets' load checks the files whole.
          if (error instanceof RangeError) return undefined;
          throw error;
        }
      },
      close,
    };
  } catch {
    close();
    return undefined;
  }
}

/** The record id + 1 (0: none) and AS entry + 1 (0: none) of an address, or undefined (escape). */
interface Codes {
  geo: number;
  entry: number;
}

interface DirectFiles {
  tables: PositionedCacheFile;
  asn: PositionedCacheFile;
  locations: PositionedCacheFile;
  intel: PositionedCacheFile;
  manifest: PositionedCacheFile;
}

function createReader(
  files: DirectFiles,
  manifest: DirectManifest,
  lists: SignalLists,
): (ip: string) => IpInfo | undefined {
  const { tables, asn, locations, intel } = files;
  const parts = createAddressParts();
  const sources = manifest.sources;
  const sourceOf = (i: number): IntelSourceMeta => {
    const source = sources[i];
    if (source === undefined) throw new RangeError(`manifest: no source ${i}`);
    return source;
  };
  const tableSources = manifest.tableSources.map(sourceOf);
  const listingsOf = (list: AsListings[number][1]): AsListing[] =>
    list.map(([i, name]) => ({ source: sourceOf(i), name }));
  const learnt = new Map(manifest.learnt.map(([n, list]) => [n, listingsOf(list)]));
  /** The bundled lists naming AS `n` (`IpIntel.asLists`), searched in the manifest's arrays. */
  const asListsOf = (n: number): Map<number, AsListing[]> => {
    const numbers = files.manifest.u32(AS_LISTS.asn);
    let lo = 0;
    let hi = numbers.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = numbers[mid] as number;
      if (at === n) {
        const start =
          mid === 0 ? 0 : (files.manifest.u32(AS_LISTS.ends, mid - 1, mid)[0] as number);
        const end = files.manifest.u32(AS_LISTS.ends, mid, mid + 1)[0] as number;
        const text = Buffer.from(files.manifest.u8(AS_LISTS.text, start, end).buffer).toString();
        return new Map([[n, listingsOf(JSON.parse(text) as AsListings[number][1])]]);
      }
      if (at < n) lo = mid + 1;
      else hi = mid - 1;
    }
    return new Map();
  };
  // The strings of the location table by position, each read once: a lookup needs a few of
  // its 177,110 (reading them all and checking their offsets cost more than the lookup).
  const decoded = new Map<number, string>();
  const strings: TableStrings = {
    size: locations.length('strings.ends'),
    get(i) {
      let text = decoded.get(i);
      if (text === undefined) {
        const [start, end] =
          i === 0
            ? [0, locations.u32('strings.ends', 0, 1)[0] as number]
            : (Array.from(locations.u32('strings.ends', i - 1, i + 1)) as [number, number]);
        text = Buffer.from(locations.u8('strings', start, end).buffer).toString('utf8');
        decoded.set(i, text);
      }
      return text;
    },
  };
  const v6Locations = locations.has('v6.words') ? 'v6' : undefined;

  const codesV4 = (address: number): Codes | undefined => {
    const b = address >>> 16;
    const [first, next] = tables.u32('v4.bucket', b, b + 2) as unknown as [number, number];
    const slots = tables.u32('v4.slots', first * 2, next * 2);
    const i = searchV4Slots(slots, 0, next - first - 1, address);
    const geo = geoOf(slots, i * 2);
    const entry = (slots[i * 2 + 1] as number) & 0xffffff;
    return geo === V4_ESCAPE || entry === V4_ESCAPE ? undefined : { geo, entry };
  };

  const codesV6 = (w0: number, w1: number, w2: number, w3: number): Codes | undefined => {
    // The radix walk of `GeoAsnV6.index`, one node's slot pair (and the next slot's range) a read.
    let k = w0 >>> (32 - ROOT_STRIDE);
    let depth = ROOT_STRIDE;
    let slot = tables.u32('v6.slots', k * 2, k * 2 + 4);
    while (slot[1] !== 0) {
      const child = slot[1] as number;
      const base = tables.u32('v6.nodeBase', child, child + 1)[0] as number;
      const stride = tables.u8('v6.nodeStride', child, child + 1)[0] as number;
      k = base + bitsAt(w0, w1, depth, stride);
      depth += stride;
      slot = tables.u32('v6.slots', k * 2, k * 2 + 4);
    }
    const first = slot[0] as number;
    const last = slot[2] as number;
    const ranges = tables.u32('v6.ranges', first * 4, (last + 1) * 4);
    const i = searchV6Leaf(ranges, 0, last - first, w0, w1);
    let geo = ranges[i * 4 + 2] as number;
    const entry = ranges[i * 4 + 3] as number;
    if (geo === ESCAPE || entry === ASN_SEARCH) return undefined;
    if (geo >= DEEP) {
      const segment = geo - DEEP;
      const [a, b] = tables.u32('v6.deepStart', segment, segment + 2) as unknown as [
        number,
        number,
      ];
      geo = searchDeep(
        tables.u32('v6.deepHi', a, b),
        tables.u32('v6.deepLo', a, b),
        tables.u32('v6.deepCodes', a, b),
        Uint32Array.of(0, b - a),
        0,
        w2,
        w3,
      );
      if (geo === ESCAPE) return undefined;
    }
    return { geo, entry };
  };

  const locationOf = (id: number, family: 'v4' | 'v6'): IpLocation => {
    const table = new LocationTable(strings, locations.u32('countries'), locations.u32('zones'), {
      words: locations.u32(`${family}.words`, id * 5, id * 5 + 5),
      coords: new Int32Array(locations.u32(`${family}.coords`, id * 2, id * 2 + 2).buffer),
    });
    return table.location(0);
  };

  const networkOf = (entry: number): IpNetwork => {
    const name = asn.line('entryName', entry);
    const extra = (list: string) => (asn.has(list) ? asn.line(list, entry) : '') || name;
    return Object.freeze({
      asn: asn.u32('entryAsn', entry, entry + 1)[0] as number,
      as_name: name,
      org: extra('entryOrg'),
      isp: extra('entryIsp'),
    });
  };

  /** `IpIntel.comboOf` by position: the combination of range sources covering the address. */
  const comboOf = (): number => {
    let combo: number;
    if (parts.version === 4) {
      const v4 = parts.v4;
      const entry = intel.u32('v4Index', v4 >>> 16, (v4 >>> 16) + 1)[0] as number;
      if (entry >= SINGLE) combo = entry & 0xffff;
      else {
        const count = intel.u32('v4Slots', entry, entry + 1)[0] as number;
        combo = searchV4Segments(
          intel.u32('v4Slots', entry + 1, entry + count + 1),
          0,
          count - 1,
          v4,
        );
      }
    } else {
      const b = parts.w0 >>> (32 - V6_BUCKET_BITS);
      const [first, next] = intel.u32('v6Bucket', b, b + 2) as unknown as [number, number];
      if (first >= SINGLE)
        combo = intel.u16('v6Codes', first - SINGLE, first - SINGLE + 1)[0] as number;
      else {
        const last = (next & ~SINGLE) >>> 0;
        const starts = intel.u32('v6Starts', first * 2, (last + 1) * 2);
        const i = searchV6Segments(starts, 0, last - first, parts.w0, parts.w1);
        combo = intel.u16('v6Codes', first + i, first + i + 1)[0] as number;
      }
    }
    return combo;
  };
  /** The sources of combination `combo` (`RangeTable.combos[combo]`). */
  const members = (combo: number): number[] => {
    const start = combo === 0 ? 0 : (intel.u32('comboEnds', combo - 1, combo)[0] as number);
    const end = intel.u32('comboEnds', combo, combo + 1)[0] as number;
    return Array.from(intel.u32('comboSources', start, end));
  };

  /**
   * The privacy `createIpDatasets` gives (its `privacyOf` and `mixedPrivacyOf` without a
   * run-time Tor list: `openDirectLookup` declines when a copy of one is on disk).
   */
  const privacyOf = (network: IpNetwork | undefined): Readonly<IpPrivacy> => {
    const combo = comboOf();
    if (combo === 0 && network === undefined) return EMPTY_PRIVACY;
    const candidates: Candidate[] =
      combo === 0 ? [] : rangeCandidates(members(combo), tableSources);
    if (network?.asn == null) return decide(candidates);
    const n = network.asn;
    candidates.push(...asCandidates(n, network.as_name, lists, asListsOf(n), learnt));
    return decide(candidates);
  };

  return (ip: string): IpInfo | undefined => {
    if (typeof ip !== 'string' || !parseAddressInto(ip, parts)) throw new InvalidIpError();
    const text = parts.text;
    const version = parts.version;
    const special = specialRangeOf(parts);
    if (special !== undefined) return specialAddressInfo(text, version, special);
    // NAT64 and 6to4 addresses stand for an IPv4 host: located as that host (as `lookup`).
    const embedded = version === 4 ? -1 : embeddedV4(parts.w0, parts.w1, parts.w2, parts.w3);
    const v4 = version === 4 ? parts.v4 : embedded;
    const codes =
      version === 4 || embedded >= 0
        ? codesV4(v4)
        : codesV6(parts.w0, parts.w1, parts.w2, parts.w3);
    if (codes === undefined) return undefined;
    const family = version === 4 || embedded >= 0 ? 'v4' : 'v6';
    if (family === 'v6' && codes.geo !== 0 && v6Locations === undefined) return undefined;
    const network = codes.entry === 0 ? undefined : networkOf(codes.entry - 1);
    return {
      ip: text,
      version,
      bogon: false,
      bogon_reason: '',
      location: codes.geo === 0 ? EMPTY_LOCATION : locationOf(codes.geo - 1, family),
      network: network ?? EMPTY_NETWORK,
      privacy: privacyOf(network),
    };
  };
}
